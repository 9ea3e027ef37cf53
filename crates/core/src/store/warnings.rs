//! The `Warning`s of the request being served, until the HTTP layer or kubectl takes them:
//! a field `fieldValidation=Warn` dropped, what an admission plugin warns about. Admission
//! reads the store, so the list is written through a shared reference.

use std::sync::Mutex;

#[derive(Debug, Default)]
pub struct Warnings(Mutex<Vec<String>>);

impl Warnings {
    pub fn push(&self, warnings: Vec<String>) {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).extend(warnings);
    }

    /// How many there are so far.
    pub fn count(&self) -> usize {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).len()
    }

    /// The warnings from the `from`-th on.
    pub fn since(&self, from: usize) -> Vec<String> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(from..).unwrap_or_default().to_vec()
    }

    pub fn take(&mut self) -> Vec<String> {
        std::mem::take(self.0.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner))
    }
}

impl Clone for Warnings {
    fn clone(&self) -> Self {
        Warnings(Mutex::new(self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()))
    }
}

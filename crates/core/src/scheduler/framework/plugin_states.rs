//! What plugins keep for one scheduling attempt, each under its own type: a plugin's PreFilter
//! or PreScore writes its state and its Filter or Score reads it back. Upstream keeps these in
//! the CycleState under each plugin's `StateKey`; here the state's type is its key, so the
//! framework names none of the plugins' types and a new plugin brings its state in its own file.

use std::any::{Any, TypeId};

#[derive(Default)]
pub struct PluginStates {
    /// A handful at most (one per plugin with state): a short list beats a map.
    entries: Vec<(TypeId, Box<dyn Any>)>,
}

impl PluginStates {
    /// Keeps `state`, in place of any earlier state of its type.
    pub fn write<T: Any>(&mut self, state: T) {
        let id = TypeId::of::<T>();
        match self.entries.iter_mut().find(|(key, _)| *key == id) {
            Some(entry) => entry.1 = Box::new(state),
            None => self.entries.push((id, Box::new(state))),
        }
    }

    /// The state of type `T`, if a plugin wrote one this attempt.
    #[inline]
    pub fn read<T: Any>(&self) -> Option<&T> {
        let id = TypeId::of::<T>();
        self.entries.iter().find(|(key, _)| *key == id).and_then(|(_, state)| state.downcast_ref())
    }
}

impl std::fmt::Debug for PluginStates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PluginStates({} written)", self.entries.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Spread(u32);
    #[derive(Debug, PartialEq)]
    struct Affinity(&'static str);

    #[test]
    fn each_type_is_its_own_key_and_a_second_write_replaces_the_first() {
        let mut states = PluginStates::default();
        assert_eq!(states.read::<Spread>(), None);
        states.write(Spread(1));
        states.write(Affinity("zone"));
        states.write(Spread(2));
        assert_eq!((states.read::<Spread>(), states.read::<Affinity>()), (Some(&Spread(2)), Some(&Affinity("zone"))));
    }
}

//! A class as its instructor sees it (`GET /api/classes`).

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Class {
    pub id: String,
    pub name: String,
    pub join_code: String,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    pub learners: u64,
    /// The instructor has locked joins: the join code lets no one else in.
    #[serde(default)]
    pub joins_locked: bool,
}

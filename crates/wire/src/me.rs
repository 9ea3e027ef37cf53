//! Who a session belongs to (`GET /api/me`).

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "lowercase")]
pub enum Me {
    Instructor {
        id: String,
        display_name: String,
        email: String,
    },
    Learner {
        id: String,
        display_name: String,
        class_id: String,
        class_name: String,
        /// Only when it was just made (joining): the server keeps a hash and cannot show it again.
        #[serde(default)]
        resume_code: Option<String>,
    },
}

impl Me {
    pub fn display_name(&self) -> &str {
        match self {
            Me::Instructor { display_name, .. } | Me::Learner { display_name, .. } => display_name,
        }
    }

    pub fn is_learner(&self) -> bool {
        matches!(self, Me::Learner { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_roles() {
        let me: Me = serde_json::from_str(
            r#"{"role":"learner","id":"l1","display_name":"Bo","class_id":"c","class_name":"K8s","resume_code":"ABCD"}"#,
        )
        .unwrap();
        assert!(me.is_learner());
        assert_eq!(me.display_name(), "Bo");
        let me: Me =
            serde_json::from_str(r#"{"role":"instructor","id":"i","display_name":"Ada","email":"a@b.c"}"#).unwrap();
        assert!(!me.is_learner());
    }
}

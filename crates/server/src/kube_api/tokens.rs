//! A served lab's bearer tokens: each stands for one user of one lab, with a role (the owner,
//! who may do everything, or a viewer in `kubelab:viewers`, which the lab's RBAC binds to the
//! `view` ClusterRole: namespaced reads, no Secrets, nothing cluster-scoped). Only each token's SHA-256 is kept, so a dump of the server's
//! memory signs no one in; a token can be revoked; and each has its own request rate and its
//! own count of open watches, so one noisy client slows only itself.

use crate::api::codes;
use crate::api::rate_limit::{Rate, RateLimiter};
use kubelab_core::store::UserInfo;
use kubelab_core::store::lab_roles::{BOOTSTRAPPERS, VIEWERS};
use kubelab_core::store::node_authorizer::NODES_GROUP;
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// What one token may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Owner,
    Viewer,
    /// A learner: the user `kubelab:learner:<name>`, in no group but `system:authenticated`,
    /// so it may do what the roles bound to it allow (`tokens_api.rs` binds one when asked).
    Learner,
    /// A bootstrap token (kubeadm's `system:bootstrappers`): it may only join a node
    /// (`agents.rs`), and it expires.
    Bootstrap,
    /// A joined node's kubelet, `system:node:<name>` in `system:nodes`.
    Node,
}

/// How much one token may ask of the lab.
#[derive(Clone, Copy, Debug)]
pub struct TokenLimits {
    pub requests: Rate,
    /// Watches open at once.
    pub watches: usize,
}

impl Default for TokenLimits {
    fn default() -> TokenLimits {
        // client-go's default client-side limit is 5 QPS with a burst of 10 (kubectl's 50 and
        // 300); a lab lets a script of kubectl calls run without waiting.
        TokenLimits { requests: Rate { per_second: 100.0, burst: 400.0 }, watches: 1024 }
    }
}

/// A token as listed to the owner (never the token itself).
#[derive(Clone, Debug, Serialize)]
pub struct TokenInfo {
    pub id: String,
    pub user: String,
    pub role: Role,
    /// Seconds left before it expires; absent for a token that does not.
    #[serde(rename = "expiresInSeconds", skip_serializing_if = "Option::is_none")]
    pub expires_in_seconds: Option<u64>,
}

/// Who presented a token, and the token's own counters.
#[derive(Clone)]
pub struct Bearer {
    pub id: String,
    pub user: Arc<UserInfo>,
    pub role: Role,
    watches: Arc<AtomicUsize>,
}

struct Entry {
    hash: String,
    bearer: Bearer,
    /// When it stops signing anyone in (bootstrap tokens expire, as kubeadm's do after 24 h).
    expires: Option<Instant>,
}

/// Why a request with a valid token is turned away now.
#[derive(Debug, PartialEq, Eq)]
pub struct TooMany {
    pub retry_after_seconds: u64,
}

pub struct Tokens {
    entries: Mutex<Vec<Entry>>,
    rates: RateLimiter,
    limits: TokenLimits,
}

impl Tokens {
    pub fn new(limits: TokenLimits) -> Tokens {
        Tokens { entries: Mutex::new(Vec::new()), rates: RateLimiter::default(), limits }
    }

    /// Issues a token for `name` with `role`: the token (shown once) and its id.
    pub fn issue(&self, name: &str, role: Role) -> (String, String) {
        self.issue_until(name, role, None)
    }

    /// Issues a token that signs no one in after `expires`. A bootstrap token's user is
    /// `system:bootstrap:<id>`, as kubeadm names it; `name` is ignored for one.
    pub fn issue_until(&self, name: &str, role: Role, expires: Option<Instant>) -> (String, String) {
        let token = codes::new_session_token();
        let id = codes::token_hash(&token)[..12].to_string();
        let (name, groups): (String, &[&str]) = match role {
            Role::Owner => (name.into(), &["kubeadm:cluster-admins", "system:authenticated"]),
            Role::Viewer => (name.into(), &[VIEWERS, "system:authenticated"]),
            Role::Learner => (learner_user(name), &["system:authenticated"]),
            Role::Bootstrap => (format!("system:bootstrap:{}", &id[..6]), &[BOOTSTRAPPERS, "system:authenticated"]),
            Role::Node => (name.into(), &[NODES_GROUP, "system:authenticated"]),
        };
        let user = UserInfo::new(name, groups);
        let bearer = Bearer { id: id.clone(), user, role, watches: Arc::default() };
        self.lock().push(Entry { hash: codes::token_hash(&token), bearer, expires });
        (token, id)
    }

    /// The bearer of a presented token, unless it is unknown, revoked or expired.
    pub fn find(&self, presented: &str) -> Option<Bearer> {
        let hash = codes::token_hash(presented);
        let now = Instant::now();
        let entries = self.lock();
        let entry = entries.iter().find(|e| e.hash == hash)?;
        entry.expires.is_none_or(|at| now < at).then(|| entry.bearer.clone())
    }

    /// Revokes a token by its id; false when there is none.
    pub fn revoke(&self, id: &str) -> bool {
        let mut entries = self.lock();
        let before = entries.len();
        entries.retain(|e| e.bearer.id != id);
        entries.len() != before
    }

    pub fn list(&self) -> Vec<TokenInfo> {
        let entries = self.lock();
        entries
            .iter()
            .map(|e| TokenInfo {
                id: e.bearer.id.clone(),
                user: e.bearer.user.name.clone(),
                role: e.bearer.role,
                expires_in_seconds: e.expires.map(|at| at.saturating_duration_since(Instant::now()).as_secs()),
            })
            .collect()
    }

    /// Takes one request from the bearer's bucket.
    pub fn admit(&self, bearer: &Bearer) -> Result<(), TooMany> {
        let now = Instant::now();
        self.rates.take(&bearer.id, self.limits.requests, now).map_err(|s| TooMany { retry_after_seconds: s })
    }

    /// Counts an open watch against the bearer until the guard drops.
    pub fn open_watch(&self, bearer: &Bearer) -> Result<WatchSlot, TooMany> {
        let open = bearer.watches.fetch_add(1, Ordering::SeqCst);
        let slot = WatchSlot(Arc::clone(&bearer.watches));
        if open >= self.limits.watches {
            return Err(TooMany { retry_after_seconds: 1 });
        }
        Ok(slot)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Entry>> {
        self.entries.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A learner's user name: `kubelab:learner:<name>`, the subject RBAC bindings name.
pub fn learner_user(name: &str) -> String {
    format!("{LEARNER_PREFIX}{name}")
}

const LEARNER_PREFIX: &str = "kubelab:learner:";

/// One open watch of one token; dropping it frees the slot.
pub struct WatchSlot(Arc<AtomicUsize>);

impl Drop for WatchSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_kept_hashed_found_revoked_and_limited() {
        let limits = TokenLimits { requests: Rate { per_second: 1.0, burst: 2.0 }, watches: 1 };
        let tokens = Tokens::new(limits);
        let (token, id) = tokens.issue("alice", Role::Viewer);
        assert!(tokens.lock().iter().all(|e| e.hash != token), "only the hash is kept");
        let alice = tokens.find(&token).expect("the token signs alice in");
        assert_eq!((alice.user.name.as_str(), alice.role), ("alice", Role::Viewer));
        assert!(alice.user.groups.iter().any(|g| g == VIEWERS));
        assert!(tokens.find("not-a-token").is_none());

        assert_eq!((tokens.admit(&alice), tokens.admit(&alice)), (Ok(()), Ok(())));
        assert_eq!(tokens.admit(&alice), Err(TooMany { retry_after_seconds: 1 }));

        let slot = tokens.open_watch(&alice).expect("one watch");
        assert!(tokens.open_watch(&alice).is_err(), "a second watch is over the limit");
        drop(slot);
        assert!(tokens.open_watch(&alice).is_ok(), "a closed watch frees its slot");

        assert_eq!(tokens.list().len(), 1);
        assert!(tokens.revoke(&id));
        assert!(tokens.find(&token).is_none(), "a revoked token signs no one in");
    }

    #[test]
    fn a_bootstrap_token_is_kubeadms_user_and_expires() {
        let tokens = Tokens::new(TokenLimits::default());
        let (token, id) =
            tokens.issue_until("", Role::Bootstrap, Some(Instant::now() + std::time::Duration::from_secs(60)));
        let bearer = tokens.find(&token).expect("a fresh bootstrap token signs in");
        assert_eq!(bearer.user.name, format!("system:bootstrap:{}", &id[..6]));
        assert!(bearer.user.groups.iter().any(|g| g == BOOTSTRAPPERS));
        let (old, _) = tokens.issue_until("", Role::Bootstrap, Some(Instant::now()));
        assert!(tokens.find(&old).is_none(), "an expired token signs no one in");
        let (learner, _) = tokens.issue("ann", Role::Learner);
        let ann = tokens.find(&learner).unwrap();
        assert_eq!(ann.user.name, "kubelab:learner:ann");
        assert_eq!(ann.user.groups, ["system:authenticated"]);
        let (node, _) = tokens.issue("system:node:worker-a", Role::Node);
        let kubelet = tokens.find(&node).unwrap();
        assert_eq!(kubelet.user.node_name(), Some("worker-a"));
        assert!(kubelet.user.groups.iter().any(|g| g == NODES_GROUP));
    }
}

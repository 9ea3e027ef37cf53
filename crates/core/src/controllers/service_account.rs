//! The ServiceAccount controller (pkg/controller/serviceaccount, `ServiceAccountsController`):
//! every active namespace has a `default` service account; one missing is created again. The
//! namespaces the cluster starts with get theirs when the store is made (`ensure_defaults`),
//! as the controller does moments after a real cluster starts.

use crate::api::{Namespace, ObjectMeta, ServiceAccount};
use crate::sim::random::Purpose;
use crate::store::{Store, UserInfo};

/// The account every namespace gets (`DefaultServiceAccountName`).
pub const DEFAULT: &str = "default";
/// The controller's own service account in kube-system.
pub const SERVICE_ACCOUNT: &str = "service-account-controller";

#[derive(Clone, Debug, Default)]
pub struct ServiceAccountController;

impl ServiceAccountController {
    pub fn sync(&mut self, store: &mut Store) {
        ensure_defaults(store);
    }
}

/// Creates `default` in each active namespace that lacks it, as the controller's account.
/// Its uids come from a stream of their own, so the learner's objects keep theirs.
pub fn ensure_defaults(store: &mut Store) {
    let missing: Vec<String> = store
        .list::<Namespace>(None)
        .filter(|ns| ns.metadata.deletion_timestamp.is_none())
        .filter(|ns| store.try_get::<ServiceAccount>(&ns.metadata.name, DEFAULT).is_none())
        .map(|ns| ns.metadata.name.clone())
        .collect();
    if missing.is_empty() {
        return;
    }
    let caller = store.act_as(UserInfo::controller(SERVICE_ACCOUNT));
    for namespace in missing {
        let account = ServiceAccount { metadata: ObjectMeta::named(&namespace, DEFAULT), ..Default::default() };
        let _ = store.create_from_stream(Purpose::ServiceAccountUid, account);
    }
    store.act_as(caller);
}

//! kube-controller-manager's persistent volume controllers and kind's local-path provisioner:
//! `binder.rs` binds claims to volumes and releases them (pkg/controller/volume/
//! persistentvolume), `local_path.rs` makes and deletes the volumes of the default class,
//! `protection.rs` holds a claim or volume in use (pkg/controller/volume/pvcprotection and
//! pvprotection). They take one turn together, each writing as its own user.

pub mod binder;
pub mod local_path;
pub mod protection;

use crate::api::Kind;
use crate::runtime::informer::{Changes, Informer};
use crate::runtime::wakeups::Wakeups;
use crate::sim::time::{Duration, SimTime};
use crate::store::Store;

/// The binder's resync (`--pvclaimbinder-sync-period`, 15 s): a pending claim is looked at
/// again this often, and each look reports why it still waits.
pub const SYNC_PERIOD: Duration = Duration::from_secs(15);

#[derive(Clone, Debug, Default)]
pub struct PersistentVolumeController {
    pub(crate) informer: Informer,
    /// The next resync while a claim is pending.
    resync: Wakeups<()>,
    pub(crate) local_path: local_path::LocalPathProvisioner,
}

impl PersistentVolumeController {
    pub fn next_wake(&self) -> Option<SimTime> {
        [self.resync.next(), self.local_path.next_wake()].into_iter().flatten().min()
    }

    pub fn sync(&mut self, store: &mut Store) {
        let resync = !self.resync.take_due(store.now()).is_empty();
        let mut changed = Changed::default();
        match self.informer.poll(store) {
            Changes::Relist => changed.everything = true,
            Changes::Events(events) => {
                for event in events {
                    match event.kind {
                        Kind::PersistentVolumeClaim => {
                            changed.claims.push((event.namespace.clone(), event.name.clone()))
                        }
                        Kind::PersistentVolume | Kind::StorageClass => changed.volumes = true,
                        Kind::Pod => changed.pods = true,
                        _ => {}
                    }
                }
            }
        }
        let provisioning_due = self.local_path.is_due(store.now());
        if !(resync || provisioning_due || changed.everything || changed.volumes || changed.pods)
            && changed.claims.is_empty()
        {
            return;
        }
        let caller = store.user().clone();
        // A resync or a volume's change looks at every claim; a claim's change at that claim.
        let claims = if resync || changed.everything || changed.volumes { None } else { Some(&changed.claims) };
        binder::sync(store, claims);
        self.local_path.sync(store);
        protection::sync(store);
        store.act_as(caller);
        if binder::any_pending(store) && self.resync.is_empty() {
            self.resync.add_at(store.now().plus(SYNC_PERIOD), ());
        }
    }
}

/// What changed since the last turn.
#[derive(Default)]
struct Changed {
    everything: bool,
    claims: Vec<(String, String)>,
    volumes: bool,
    pods: bool,
}

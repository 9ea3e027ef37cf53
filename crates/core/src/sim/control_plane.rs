//! The control plane's processes stopped and started as a learner would on a kubeadm node
//! (`lab etcd stop`, …), with etcd's snapshots and a node cut off from the control plane. Which
//! components run is `controllers/control_plane.rs`, read by the loops of every pass.

use super::Sim;
use crate::api::{Node, Pod};
use crate::controllers::control_plane::{Component, ControlPlane, ETCDCTL_UNREACHABLE};
use crate::kubeadm::CONTROL_PLANE_NODE;
use crate::store::etcd_snapshot::EtcdSnapshot;
use crate::store::{DeleteOptions, UserInfo};

impl Sim {
    pub fn control_plane(&self) -> &ControlPlane {
        &self.controllers.control_plane
    }

    /// Starts or stops a component; false when it already was as asked. The scheduler and the
    /// controller manager stop as a learner stops them on a kubeadm node, by moving their
    /// manifests out of `/etc/kubernetes/manifests`: the kubelet stops the static pod and
    /// deletes its mirror, and posts a new one when the manifest is back.
    pub fn set_running(&mut self, component: Component, running: bool) -> bool {
        if !self.controllers.control_plane.set_running(component, running) {
            return false;
        }
        if matches!(component, Component::Scheduler | Component::ControllerManager)
            && self.control_plane().api_available()
        {
            self.sync_mirror_pod(component, running);
        }
        true
    }

    fn sync_mirror_pod(&mut self, component: Component, running: bool) {
        let Some(node) = self.store.try_get_shared::<Node>("", CONTROL_PLANE_NODE) else { return };
        let caller = self.store.act_as(UserInfo::node(CONTROL_PLANE_NODE));
        if running {
            crate::kubeadm::post_mirror_pod(&mut self.store, &node, component.static_pod());
        } else {
            let name = format!("{}-{CONTROL_PLANE_NODE}", component.static_pod());
            let now = DeleteOptions { grace_period_seconds: Some(0), ..Default::default() };
            let _ = self.store.delete::<Pod>("kube-system", &name, &now);
        }
        self.store.act_as(caller);
    }

    /// `etcdctl snapshot save PATH`: the keyspace as it is now, kept at `path`.
    pub fn save_etcd_snapshot(&mut self, path: &str) -> Result<&EtcdSnapshot, String> {
        if !self.control_plane().is_running(Component::Etcd) {
            return Err(ETCDCTL_UNREACHABLE.into());
        }
        let snapshot = self.store.etcd_snapshot();
        Ok(self.controllers.control_plane.save_snapshot(path, snapshot))
    }

    /// Restores the snapshot saved at `path`; how many objects changed.
    pub fn restore_etcd_snapshot(&mut self, path: &str) -> Result<usize, String> {
        let snapshot = self
            .controllers
            .control_plane
            .snapshot(path)
            .cloned()
            .ok_or_else(|| format!("Error: stat {path}: no such file or directory"))?;
        Ok(self.store.restore_etcd_snapshot(&snapshot))
    }
}

impl Sim {
    /// `lab node partition`: the node's link to the control plane is cut (`kubelet/partition.rs`).
    pub fn partition_node(&mut self, name: &str) -> Result<(), crate::error::ApiError> {
        self.simulated_machine(name)?;
        self.controllers.kubelet.partition(&mut self.store, name);
        Ok(())
    }

    /// `lab node heal`: the link is back.
    pub fn heal_node(&mut self, name: &str) -> Result<(), crate::error::ApiError> {
        self.simulated_machine(name)?;
        self.controllers.kubelet.heal(&mut self.store, name);
        Ok(())
    }
}

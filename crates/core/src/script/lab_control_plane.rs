//! `lab etcd|apiserver|scheduler|controller-manager stop|start` and `lab etcd snapshot
//! save|restore PATH`: the control plane's processes failing and coming back, and etcd's
//! backups, as a learner works them on a kubeadm node (moving a static pod's manifest out of
//! `/etc/kubernetes/manifests` and back, `etcdctl snapshot save`, `etcdutl snapshot restore`).

use crate::controllers::control_plane::Component;
use crate::kubectl::args;
use crate::sim::Sim;

pub fn etcd_stop(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    set_running(sim, args, Component::Etcd, false)
}

pub fn etcd_start(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    set_running(sim, args, Component::Etcd, true)
}

pub fn apiserver_stop(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    set_running(sim, args, Component::ApiServer, false)
}

pub fn apiserver_start(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    set_running(sim, args, Component::ApiServer, true)
}

pub fn scheduler_stop(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    set_running(sim, args, Component::Scheduler, false)
}

pub fn scheduler_start(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    set_running(sim, args, Component::Scheduler, true)
}

pub fn controller_manager_stop(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    set_running(sim, args, Component::ControllerManager, false)
}

pub fn controller_manager_start(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    set_running(sim, args, Component::ControllerManager, true)
}

fn set_running(sim: &mut Sim, args: &args::Args, component: Component, running: bool) -> Result<String, String> {
    if !args.positionals.is_empty() {
        return Err(format!("error: unexpected argument \"{}\"", args.positionals[0]));
    }
    let name = component.static_pod();
    match (sim.set_running(component, running), running) {
        (true, true) => Ok(format!("{name} started")),
        (true, false) => Ok(format!("{name} stopped")),
        (false, true) => Err(format!("error: {name} is already running")),
        (false, false) => Err(format!("error: {name} is already stopped")),
    }
}

/// `etcdctl snapshot save PATH`, and what etcdctl 3.6 prints on stdout once it is written.
pub fn snapshot_save(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let path = one_path(args, "lab etcd snapshot save PATH")?;
    sim.save_etcd_snapshot(&path)?;
    Ok(format!("Snapshot saved at {path}"))
}

/// `etcdutl snapshot restore PATH` and etcd restarted on the restored data: the objects go
/// back to the snapshot's, and the cluster's loops reconcile with what runs.
pub fn snapshot_restore(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let path = one_path(args, "lab etcd snapshot restore PATH")?;
    let changed = sim.restore_etcd_snapshot(&path)?;
    Ok(format!("etcd restored from {path}: {changed} objects written back or removed"))
}

fn one_path(args: &args::Args, usage: &str) -> Result<String, String> {
    match args.positionals.as_slice() {
        [path] => Ok(path.clone()),
        _ => Err(format!("error: usage: {usage}")),
    }
}

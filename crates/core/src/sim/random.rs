//! Randomness by purpose: one seeded stream per kind of choice, each derived from the lab's
//! seed. A draw for one purpose never moves another's sequence, so a new system object (a
//! Lease, a kube-system pod) or one more container id leaves every learner's pod names as they
//! were; lessons, permalinks and lab logs name pods.

use super::rng::Rng;
use std::sync::{Mutex, PoisonError};

/// What a random draw is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Purpose {
    /// `metadata.uid` of the learner's objects.
    Uid,
    /// `generateName` suffixes of the learner's objects (`hello-6b85969876-rgpqn`).
    GeneratedName,
    /// Uids and names of what the control plane keeps for itself (kube-* namespaces, `system-*`).
    SystemUid,
    SystemName,
    /// Container and exec ids (`containerd://…`).
    ContainerId,
    /// The scheduler's pick among equally scored nodes.
    SchedulerTie,
    /// kube-proxy's pick of a Service's backend.
    ServiceRouting,
    /// ClusterIPs from the service CIDR.
    ClusterIp,
    /// NodePorts from 30000–32767.
    NodePort,
    /// Each node's kube-proxy propagation delay.
    ProxyDelay,
    /// Uids of the RBAC bootstrap policy the API server creates at start.
    PolicyUid,
    /// Service account tokens (`kubectl create token`).
    Token,
    /// Uids of the `default` service accounts the ServiceAccount controller creates.
    ServiceAccountUid,
    /// Uids of each namespace's `kube-root-ca.crt` ConfigMap.
    RootCaConfigMapUid,
    /// The suffix of a pod's `kube-api-access-…` token volume (ServiceAccount admission).
    TokenVolumeName,
    /// The uid of kind's default StorageClass, installed with the cluster.
    StorageClassUid,
    /// Uids of the APIServices the API server registers for the groups it serves.
    ApiServiceUid,
}

const PURPOSES: usize = 17;

impl Purpose {
    const ALL: [Purpose; PURPOSES] = [
        Purpose::Uid,
        Purpose::GeneratedName,
        Purpose::SystemUid,
        Purpose::SystemName,
        Purpose::ContainerId,
        Purpose::SchedulerTie,
        Purpose::ServiceRouting,
        Purpose::ClusterIp,
        Purpose::NodePort,
        Purpose::ProxyDelay,
        Purpose::PolicyUid,
        Purpose::Token,
        Purpose::ServiceAccountUid,
        Purpose::RootCaConfigMapUid,
        Purpose::TokenVolumeName,
        Purpose::StorageClassUid,
        Purpose::ApiServiceUid,
    ];

    /// A fixed tag per purpose, so a purpose added later gets a stream of its own without
    /// shifting the others.
    fn tag(self) -> u64 {
        match self {
            Purpose::Uid => 1,
            Purpose::GeneratedName => 2,
            Purpose::SystemUid => 3,
            Purpose::SystemName => 4,
            Purpose::ContainerId => 5,
            Purpose::SchedulerTie => 6,
            Purpose::ServiceRouting => 7,
            Purpose::ClusterIp => 8,
            Purpose::NodePort => 9,
            Purpose::ProxyDelay => 10,
            Purpose::PolicyUid => 2401,
            Purpose::Token => 2402,
            Purpose::ServiceAccountUid => 2403,
            Purpose::RootCaConfigMapUid => 2404,
            Purpose::TokenVolumeName => 2405,
            Purpose::StorageClassUid => 2406,
            Purpose::ApiServiceUid => 2407,
        }
    }
}

/// The lab's random streams, one per purpose.
#[derive(Clone, Debug)]
pub struct RandomStreams {
    streams: [Rng; PURPOSES],
}

impl RandomStreams {
    pub fn new(seed: u64) -> RandomStreams {
        // The tag is spread over all 64 bits (an odd multiplier) before it meets the seed, and
        // Rng::new mixes the result through SplitMix64, so neighbouring tags share no sequence.
        RandomStreams { streams: Purpose::ALL.map(|purpose| stream_of(seed, purpose)) }
    }

    pub fn stream(&mut self, purpose: Purpose) -> &mut Rng {
        // `ALL` lists the purposes in declaration order, so a purpose's discriminant is its index.
        &mut self.streams[purpose as usize]
    }

    /// Uniform in `0..bound` from `purpose`'s stream.
    pub fn below(&mut self, purpose: Purpose, bound: u64) -> u64 {
        self.stream(purpose).below(bound)
    }
}

/// `purpose`'s stream for `seed`.
fn stream_of(seed: u64, purpose: Purpose) -> Rng {
    // The tag is spread over all 64 bits (an odd multiplier) before it meets the seed, and
    // Rng::new mixes the result through SplitMix64, so neighbouring tags share no sequence.
    Rng::new(seed ^ purpose.tag().wrapping_mul(0xD1B5_4A32_D192_ED03))
}

/// One purpose's stream behind a lock, for draws made through a shared reference: admission
/// plugins read the store, and the ServiceAccount plugin names the token volume it adds.
#[derive(Debug)]
pub struct SharedStream(Mutex<Rng>);

impl SharedStream {
    pub fn new(seed: u64, purpose: Purpose) -> SharedStream {
        SharedStream(Mutex::new(stream_of(seed, purpose)))
    }

    /// `n` characters of a generated name's suffix.
    pub fn name_suffix(&self, n: usize) -> String {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).name_suffix(n)
    }
}

impl Clone for SharedStream {
    fn clone(&self) -> Self {
        SharedStream(Mutex::new(self.0.lock().unwrap_or_else(PoisonError::into_inner).clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_for_one_purpose_leaves_the_others_as_they_were() {
        let mut quiet = RandomStreams::new(7);
        let mut busy = RandomStreams::new(7);
        for _ in 0..100 {
            busy.below(Purpose::SystemUid, 1000);
            busy.below(Purpose::ContainerId, 1000);
        }
        let names = |s: &mut RandomStreams| s.stream(Purpose::GeneratedName).name_suffix(5);
        assert_eq!(names(&mut quiet), names(&mut busy));
    }

    #[test]
    fn each_purpose_indexes_its_own_stream() {
        for (index, purpose) in Purpose::ALL.iter().enumerate() {
            assert_eq!(*purpose as usize, index, "{purpose:?}");
        }
    }

    #[test]
    fn streams_differ_from_each_other_and_across_seeds() {
        let first = |seed, purpose| RandomStreams::new(seed).stream(purpose).next_u64();
        let all: std::collections::BTreeSet<u64> = Purpose::ALL.iter().map(|p| first(1, *p)).collect();
        assert_eq!(all.len(), PURPOSES);
        assert_ne!(first(1, Purpose::Uid), first(2, Purpose::Uid));
    }
}

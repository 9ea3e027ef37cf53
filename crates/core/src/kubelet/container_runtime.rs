//! The kubelet's container runtime, as upstream's kubelet sees one through the CRI
//! (`ImageService`, `RuntimeService` behind `kubecontainer.Runtime`): what pulling an image
//! gives, and so what its containers do. The simulated runtime behind it resolves images from
//! the lab's own catalogue, one per simulation; a real node's agent brings its own runtime.

use crate::workload::{Catalogue, ImageInfo, PullError};
use std::fmt::Debug;
use std::sync::Arc;

pub trait ContainerRuntime: Debug + Send + Sync {
    /// `PullImage` and `ImageStatus`: the image as this runtime has it (its size, how long a
    /// pull takes, what its processes do), or why it cannot be pulled.
    fn resolve_image(&self, image: &str) -> Result<ImageInfo, PullError>;
}

/// The simulated runtime: images and their behaviour from an image catalogue.
#[derive(Debug)]
pub struct SimulatedRuntime {
    catalogue: Arc<Catalogue>,
}

impl SimulatedRuntime {
    pub fn new(catalogue: Arc<Catalogue>) -> SimulatedRuntime {
        SimulatedRuntime { catalogue }
    }

    pub fn catalogue(&self) -> &Catalogue {
        &self.catalogue
    }
}

impl ContainerRuntime for SimulatedRuntime {
    fn resolve_image(&self, image: &str) -> Result<ImageInfo, PullError> {
        self.catalogue.resolve(image)
    }
}

/// The runtime every kubelet of one simulation shares (copies of the simulation share it too).
#[derive(Clone, Debug)]
pub struct Runtime(Arc<dyn ContainerRuntime>);

impl Runtime {
    pub fn new(runtime: impl ContainerRuntime + 'static) -> Runtime {
        Runtime(Arc::new(runtime))
    }

    pub fn get(&self) -> &dyn ContainerRuntime {
        self.0.as_ref()
    }
}

impl Default for Runtime {
    /// The simulated runtime over the built-in catalogue.
    fn default() -> Runtime {
        Runtime::new(SimulatedRuntime::new(Catalogue::builtin_shared()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubectl::fixture::run;
    use crate::sim::Sim;

    /// A registry that has nothing: every pull is refused.
    #[derive(Debug)]
    struct EmptyRegistry;

    impl ContainerRuntime for EmptyRegistry {
        fn resolve_image(&self, image: &str) -> Result<ImageInfo, PullError> {
            Err(PullError::NotFound { image: image.to_string(), reference: format!("docker.io/library/{image}") })
        }
    }

    #[test]
    fn each_lab_runs_its_pods_on_its_own_runtime() {
        let mut own = Sim::default();
        own.use_container_runtime(Runtime::new(EmptyRegistry));
        let mut builtin = Sim::default();
        for sim in [&mut own, &mut builtin] {
            run(sim, "kubectl run web --image=hello:v1");
            run(sim, "sleep 10s");
        }
        let got = run(&mut own, "kubectl get pod web");
        assert!(got.contains("ErrImagePull") || got.contains("ImagePullBackOff"), "{got}");
        assert!(run(&mut builtin, "kubectl get pod web").contains("Running"));
    }
}

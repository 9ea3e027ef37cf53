//! The ConfigMaps and Secrets a pod refers to, as upstream's `VisitPodSecretNames` and
//! `VisitPodConfigmapNames` (pkg/api/v1/pod/util.go) walk them: what a real machine's kubelet
//! fetches, and what the Node authorizer lets it read.

use super::Pod;
use std::collections::BTreeSet;

/// The names of the ConfigMaps and Secrets in the pod's namespace that it refers to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct References {
    pub config_maps: BTreeSet<String>,
    pub secrets: BTreeSet<String>,
}

impl References {
    /// Every container's (init ones too) `env` and `envFrom`, the volumes (and their projected
    /// sources), and, for Secrets, `imagePullSecrets`. (The lab's ephemeral containers take no
    /// env.)
    pub fn of(pod: &Pod) -> References {
        let mut refs = References::default();
        let spec = &pod.spec;
        for container in spec.containers.iter().chain(spec.init_containers.iter()) {
            for source in &container.env_from {
                refs.add_config_map(source.config_map_ref.as_ref().and_then(|r| r.name.as_deref()));
                refs.add_secret(source.secret_ref.as_ref().and_then(|r| r.name.as_deref()));
            }
            for from in container.env.iter().filter_map(|e| e.value_from.as_ref()) {
                refs.add_config_map(from.config_map_key_ref.as_ref().and_then(|r| r.name.as_deref()));
                refs.add_secret(from.secret_key_ref.as_ref().and_then(|r| r.name.as_deref()));
            }
        }
        for volume in spec.volumes.iter() {
            refs.add_config_map(volume.config_map.as_ref().and_then(|c| c.name.as_deref()));
            refs.add_secret(volume.secret.as_ref().and_then(|s| s.secret_name.as_deref()));
            for source in volume.projected.iter().flat_map(|p| p.sources.iter()) {
                refs.add_config_map(source.config_map.as_ref().and_then(|c| c.name.as_deref()));
                refs.add_secret(source.secret.as_ref().and_then(|s| s.name.as_deref()));
            }
        }
        for pull in spec.image_pull_secrets.iter() {
            refs.add_secret(Some(pull.name.as_str()));
        }
        refs
    }

    fn add_config_map(&mut self, name: Option<&str>) {
        if let Some(name) = name.filter(|n| !n.is_empty()) {
            self.config_maps.insert(name.to_string());
        }
    }

    fn add_secret(&mut self, name: Option<&str>) {
        if let Some(name) = name.filter(|n| !n.is_empty()) {
            self.secrets.insert(name.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::References;
    use crate::api::Pod;

    #[test]
    fn a_pod_refers_to_what_its_env_volumes_and_pull_secrets_name() {
        let yaml: serde_json::Value = serde_yaml::from_str(
            r#"
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  imagePullSecrets: [{name: regcred}]
  initContainers:
  - name: init
    image: busybox
    envFrom: [{secretRef: {name: init-secret}}]
  containers:
  - name: app
    image: hello:v2
    envFrom: [{configMapRef: {name: hello-config}, prefix: CFG_}]
    env:
    - name: DB_PASSWORD
      valueFrom: {secretKeyRef: {name: db, key: password}}
    - name: MODE
      valueFrom: {configMapKeyRef: {name: modes, key: mode}}
  volumes:
  - name: files
    configMap: {name: files}
  - name: tls
    secret: {secretName: shop-tls}
  - name: all
    projected:
      sources:
      - configMap: {name: projected-cm}
      - secret: {name: projected-secret}
"#,
        )
        .unwrap();
        let pod: Pod = crate::api::codec::decode_typed(yaml).unwrap();
        let refs = References::of(&pod);
        assert_eq!(
            refs.config_maps.into_iter().collect::<Vec<_>>(),
            ["files", "hello-config", "modes", "projected-cm"]
        );
        assert_eq!(
            refs.secrets.into_iter().collect::<Vec<_>>(),
            ["db", "init-secret", "projected-secret", "regcred", "shop-tls"]
        );
    }
}

//! The image catalogue: which images exist and what their processes do, read from YAML
//! (`catalogue.yaml` built in; lessons may bring their own in the same shape). Resolving an
//! image here is the simulator's registry plus containerd's pull.
//!
//! Which images exist:
//! - a repository the catalogue lists exists with exactly the tags it lists (`"*"`: any tag),
//!   and with the digests of those tags; any other tag or digest is `NotFound` (`hello:v9`);
//! - other Docker Hub official images (`docker.io/library/…`, e.g. `nginz`) and names containing
//!   a `nonexistentMarkers` word do not exist: Docker Hub answers `pull access denied`;
//! - every other repository (`myrepo/api:2.1`, `ghcr.io/org/app`) is the learner's own image,
//!   and behaves as `defaultImage`.

use super::behaviour::{Behaviour, Workload};
use super::reference::{ImageReference, PullError, pseudo_digest};
use crate::sim::time::Duration;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::{Arc, OnceLock};

const BUILTIN_YAML: &str = include_str!("catalogue.yaml");
/// Tag wildcard: the repository has every tag.
const ANY_TAG: &str = "*";
/// Pull time: a fixed 1 s (resolve, unpack) plus the size at 100 Mbit/s (12,500 bytes per ms).
const PULL_FIXED_MS: u64 = 1_000;
const PULL_BYTES_PER_MS: u64 = 12_500;

/// The catalogue file's shape.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Catalogue {
    /// How images the catalogue does not know behave.
    pub default_image: DefaultImage,
    /// Words that mark a repository as one that does not exist (`does-not-exist`).
    #[serde(default)]
    pub nonexistent_markers: Vec<String>,
    pub images: Vec<ImageEntry>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DefaultImage {
    pub size_bytes: u64,
    pub behaviour: Behaviour,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ImageEntry {
    /// As a manifest would name it (`hello`, `registry.k8s.io/pause`); normalised when loaded.
    pub repository: String,
    pub tags: Vec<String>,
    pub size_bytes: u64,
    /// The node image ships it (kind's does, for the control plane and its add-ons): every
    /// node has it from boot, so it is never pulled.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub preloaded: bool,
    #[serde(default)]
    pub behaviour: Behaviour,
}

/// A pulled image: what the kubelet records and runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageInfo {
    /// As the container spec spells it (`hello:v1`).
    pub image: String,
    /// containerd's name for it (`docker.io/library/hello:v1`): `node.status.images[].names`.
    pub reference: String,
    /// `docker.io/library/hello@sha256:…`: the container status's `imageID`.
    pub image_id: String,
    pub size_bytes: u64,
    pub pull_duration: Duration,
    /// On every node from boot (see `ImageEntry::preloaded`).
    pub preloaded: bool,
    pub workload: Workload,
}

impl Catalogue {
    /// The built-in catalogue (`catalogue.yaml`), freshly parsed.
    pub fn builtin() -> Catalogue {
        Catalogue::from_yaml(BUILTIN_YAML).unwrap_or_default()
    }

    /// The built-in catalogue parsed once and shared, immutable, by every lab that uses it
    /// (parsing costs most of what making a lab does). A lab reaches it only through its
    /// kubelets' runtime, which may hold any other catalogue instead.
    pub fn builtin_shared() -> Arc<Catalogue> {
        static BUILTIN: OnceLock<Arc<Catalogue>> = OnceLock::new();
        BUILTIN.get_or_init(|| Arc::new(Catalogue::builtin())).clone()
    }

    /// Parses and checks a catalogue; the error names the entry and field at fault.
    pub fn from_yaml(text: &str) -> Result<Catalogue, String> {
        let mut catalogue: Catalogue = serde_yaml::from_str(text).map_err(|err| format!("image catalogue: {err}"))?;
        catalogue.normalise().map_err(|err| format!("image catalogue: {err}"))?;
        Ok(catalogue)
    }

    /// Normalises repositories and checks what serde cannot.
    fn normalise(&mut self) -> Result<(), String> {
        let mut seen = BTreeSet::new();
        check_behaviour(&self.default_image.behaviour).map_err(|err| format!("defaultImage.behaviour: {err}"))?;
        for (index, entry) in self.images.iter_mut().enumerate() {
            let at = |err: String| format!("images[{index}]: {err}");
            let parsed = ImageReference::parse(&entry.repository).map_err(at)?;
            if parsed.digest.is_some() || entry.repository.rsplit('/').next().is_some_and(|last| last.contains(':')) {
                return Err(at(format!("repository {:?} must not carry a tag or digest", entry.repository)));
            }
            entry.repository = parsed.repository;
            if entry.tags.is_empty() {
                return Err(at("tags: at least one tag (or \"*\") is required".into()));
            }
            for tag in &entry.tags {
                if tag != ANY_TAG && ImageReference::parse(&format!("{}:{tag}", entry.repository)).is_err() {
                    return Err(at(format!("tags: invalid tag {tag:?}")));
                }
                if !seen.insert((entry.repository.clone(), tag.clone())) {
                    return Err(at(format!("{}:{tag} is listed twice", entry.repository)));
                }
            }
            check_behaviour(&entry.behaviour).map_err(|err| at(format!("behaviour: {err}")))?;
        }
        Ok(())
    }

    /// Pulls `image`: what it is, or why it cannot be pulled.
    pub fn resolve(&self, image: &str) -> Result<ImageInfo, PullError> {
        let reference = ImageReference::parse(image)
            .map_err(|message| PullError::InvalidImageName { image: image.to_string(), message })?;
        let normalized = reference.normalized();
        let known: Vec<&ImageEntry> = self.images.iter().filter(|e| e.repository == reference.repository).collect();
        let (size_bytes, preloaded, behaviour) = if known.is_empty() {
            if reference.is_official() || self.marked_nonexistent(&reference.repository) {
                return Err(PullError::AccessDenied { image: image.to_string(), reference: normalized });
            }
            (self.default_image.size_bytes, false, &self.default_image.behaviour)
        } else {
            let entry = known.into_iter().find(|entry| has(entry, &reference));
            let entry =
                entry.ok_or_else(|| PullError::NotFound { image: image.to_string(), reference: normalized.clone() })?;
            (entry.size_bytes, entry.preloaded, &entry.behaviour)
        };
        let digest = reference.digest.clone().unwrap_or_else(|| pseudo_digest(&normalized));
        Ok(ImageInfo {
            image: image.to_string(),
            image_id: format!("{}@{digest}", reference.repository),
            size_bytes,
            pull_duration: Duration(PULL_FIXED_MS + size_bytes / PULL_BYTES_PER_MS),
            preloaded,
            workload: Workload { image: normalized.clone(), behaviour: behaviour.clone() },
            reference: normalized,
        })
    }

    fn marked_nonexistent(&self, repository: &str) -> bool {
        self.nonexistent_markers.iter().any(|marker| repository.contains(marker.as_str()))
    }
}

/// Whether `entry` has the tag or digest `reference` asks for.
fn has(entry: &ImageEntry, reference: &ImageReference) -> bool {
    if entry.tags.iter().any(|t| t == ANY_TAG) {
        return true;
    }
    match (&reference.digest, &reference.tag) {
        (Some(digest), _) => {
            entry.tags.iter().any(|tag| pseudo_digest(&format!("{}:{tag}", entry.repository)) == *digest)
        }
        (None, Some(tag)) => entry.tags.contains(tag),
        (None, None) => false,
    }
}

fn check_behaviour(behaviour: &Behaviour) -> Result<(), String> {
    for (index, route) in behaviour.routes.iter().enumerate() {
        if !route.path.starts_with('/') {
            return Err(format!("routes[{index}].path: {:?} must start with \"/\"", route.path));
        }
        if let Some(bad) = route.responses.iter().find(|r| !(100..=599).contains(&r.status)) {
            return Err(format!("routes[{index}].responses: invalid HTTP status {}", bad.status));
        }
        if route.responses.windows(2).any(|pair| pair[0].after_ms > pair[1].after_ms) {
            return Err(format!("routes[{index}].responses: must be in afterMs order"));
        }
    }
    Ok(())
}

//! Image references as containerd reads them (`hello:v1` → `docker.io/library/hello:v1`),
//! mirroring github.com/distribution/reference `ParseNormalizedNamed`, and the pull errors
//! the kubelet reports (pkg/kubelet/images/image_manager.go).

use std::fmt;

/// Docker Hub, the registry of every short name.
const DEFAULT_DOMAIN: &str = "docker.io";
/// Docker Hub's namespace for official images (`nginx` → `library/nginx`).
const OFFICIAL_NAMESPACE: &str = "library";
const DEFAULT_TAG: &str = "latest";
/// distribution/reference `NameTotalLengthMax`.
const NAME_TOTAL_LENGTH_MAX: usize = 255;

/// A parsed, normalised image reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageReference {
    /// `docker.io/library/hello`
    pub repository: String,
    /// `v1`; `latest` when neither a tag nor a digest was written.
    pub tag: Option<String>,
    /// `sha256:…` when the reference pins a digest.
    pub digest: Option<String>,
}

impl ImageReference {
    /// Parses `image` as the kubelet and containerd do; the error is the kubelet's
    /// `couldn't parse image name …` text.
    pub fn parse(image: &str) -> Result<ImageReference, String> {
        parse_normalized(image).map_err(|err| format!("couldn't parse image name {image:?}: {err}"))
    }

    /// What containerd pulls: `docker.io/library/hello:v1` or `…/hello@sha256:…`.
    pub fn normalized(&self) -> String {
        match (&self.tag, &self.digest) {
            (_, Some(digest)) => format!("{}@{digest}", self.repository),
            (Some(tag), None) => format!("{}:{tag}", self.repository),
            (None, None) => format!("{}:{DEFAULT_TAG}", self.repository),
        }
    }

    /// Whether the repository lives in Docker Hub's namespace of official images.
    pub fn is_official(&self) -> bool {
        self.repository.strip_prefix(DEFAULT_DOMAIN).is_some_and(|rest| rest.starts_with("/library/"))
    }
}

/// `ParseNormalizedNamed` followed by the default tag.
fn parse_normalized(image: &str) -> Result<ImageReference, String> {
    const INVALID: &str = "invalid reference format";
    if image.len() == 64 && image.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("invalid repository name ({image}), cannot specify 64-byte hexadecimal strings"));
    }
    let (domain, remainder) = split_docker_domain(image);
    let remote_name = remainder.split([':', '@']).next().unwrap_or_default();
    if remote_name.to_lowercase() != remote_name {
        return Err(format!("{INVALID}: repository name ({remote_name}) must be lowercase"));
    }
    let (name_and_tag, digest) = match remainder.split_once('@') {
        Some((name, digest)) => (name, Some(digest)),
        None => (remainder.as_str(), None),
    };
    let (path, tag) = match name_and_tag.rsplit_once(':') {
        Some((path, tag)) => (path, Some(tag)),
        None => (name_and_tag, None),
    };
    let valid = is_domain(&domain)
        && !path.is_empty()
        && path.split('/').all(is_path_component)
        && tag.is_none_or(is_tag)
        && digest.is_none_or(is_digest);
    if !valid {
        return Err(INVALID.to_string());
    }
    let repository = format!("{domain}/{path}");
    if repository.len() > NAME_TOTAL_LENGTH_MAX {
        return Err(format!("{INVALID}: repository name must not be more than {NAME_TOTAL_LENGTH_MAX} characters"));
    }
    let tag = match (tag, digest) {
        (None, None) => Some(DEFAULT_TAG.to_string()),
        (tag, _) => tag.map(str::to_string),
    };
    Ok(ImageReference { repository, tag, digest: digest.map(str::to_string) })
}

/// distribution/reference `splitDockerDomain`: the first component is a registry only when it
/// looks like one (has `.` or `:`, or is `localhost`); Docker Hub names gain `library/`.
fn split_docker_domain(name: &str) -> (String, String) {
    match name.split_once('/') {
        Some((first, rest)) if first.contains(['.', ':']) || first == "localhost" || first.to_lowercase() != first => {
            let domain = if first == "index.docker.io" { DEFAULT_DOMAIN } else { first };
            let rest = if domain == DEFAULT_DOMAIN && !rest.contains('/') {
                format!("{OFFICIAL_NAMESPACE}/{rest}")
            } else {
                rest.to_string()
            };
            (domain.to_string(), rest)
        }
        Some(_) => (DEFAULT_DOMAIN.to_string(), name.to_string()),
        None => (DEFAULT_DOMAIN.to_string(), format!("{OFFICIAL_NAMESPACE}/{name}")),
    }
}

fn is_domain(domain: &str) -> bool {
    let (host, port) = match domain.rsplit_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (domain, None),
    };
    let label_ok = |label: &str| {
        !label.is_empty()
            && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    };
    host.split('.').all(label_ok) && port.is_none_or(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// `[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*`
fn is_path_component(component: &str) -> bool {
    let bytes = component.as_bytes();
    let alnum = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    if bytes.is_empty() || !alnum(bytes[0]) || !alnum(bytes[bytes.len() - 1]) {
        return false;
    }
    let mut run = String::new();
    for &b in bytes {
        if alnum(b) {
            if !matches!(run.as_str(), "" | "." | "_" | "__") && !run.bytes().all(|s| s == b'-') {
                return false;
            }
            run.clear();
        } else if matches!(b, b'.' | b'_' | b'-') {
            run.push(b as char);
        } else {
            return false;
        }
    }
    true
}

/// `[\w][\w.-]{0,127}`
fn is_tag(tag: &str) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = tag.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 128
        && word(bytes[0])
        && bytes.iter().all(|&b| word(b) || b == b'.' || b == b'-')
}

/// `sha256:` followed by 64 lowercase hex digits (the only algorithm registries serve).
fn is_digest(digest: &str) -> bool {
    digest
        .strip_prefix("sha256:")
        .is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
}

/// A stable, content-like digest for an image the simulator invents (FNV-1a, widened to 256 bits).
pub fn pseudo_digest(seed: &str) -> String {
    let mut hex = String::with_capacity(64);
    for round in 0u64..4 {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325 ^ round.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        for byte in seed.bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        hex.push_str(&format!("{hash:016x}"));
    }
    format!("sha256:{hex}")
}

/// Why an image could not be pulled. The kubelet turns these into events and waiting reasons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PullError {
    /// The reference does not parse: event `InspectFailed`, waiting reason `InvalidImageName`.
    InvalidImageName { image: String, message: String },
    /// The repository exists but has no such tag or digest (registry 404, gRPC `NotFound`).
    NotFound { image: String, reference: String },
    /// Docker Hub answers 401 for repositories that do not exist.
    AccessDenied { image: String, reference: String },
}

impl PullError {
    /// The container's `state.waiting.reason`: `InvalidImageName` or `ErrImagePull`.
    pub fn reason(&self) -> &'static str {
        match self {
            PullError::InvalidImageName { .. } => "InvalidImageName",
            PullError::NotFound { .. } | PullError::AccessDenied { .. } => "ErrImagePull",
        }
    }

    /// The kubelet event's reason: `InspectFailed` for a bad name, `Failed` for a failed pull.
    pub fn event_reason(&self) -> &'static str {
        match self {
            PullError::InvalidImageName { .. } => "InspectFailed",
            PullError::NotFound { .. } | PullError::AccessDenied { .. } => "Failed",
        }
    }

    /// The image as the manifest spells it (for `Pulling image "…"` and `Back-off pulling image "…"`).
    pub fn image(&self) -> &str {
        match self {
            PullError::InvalidImageName { image, .. }
            | PullError::NotFound { image, .. }
            | PullError::AccessDenied { image, .. } => image,
        }
    }

    /// The runtime's error text: the container's `state.waiting.message`.
    pub fn message(&self) -> String {
        match self {
            PullError::InvalidImageName { image, message } => {
                format!("Failed to apply default image tag {image:?}: {message}")
            }
            PullError::NotFound { reference, .. } => format!(
                "rpc error: code = NotFound desc = failed to pull and unpack image {reference:?}: \
                 failed to resolve reference {reference:?}: {reference}: not found"
            ),
            PullError::AccessDenied { reference, .. } => format!(
                "failed to pull and unpack image {reference:?}: failed to resolve reference {reference:?}: \
                 pull access denied, repository does not exist or may require authorization: \
                 server message: insufficient_scope: authorization failed"
            ),
        }
    }

    /// The kubelet's warning event: `Failed to pull image "hello:v9": rpc error: …`.
    pub fn event_message(&self) -> String {
        match self {
            PullError::InvalidImageName { .. } => self.message(),
            PullError::NotFound { image, .. } | PullError::AccessDenied { image, .. } => {
                format!("Failed to pull image {image:?}: {}", self.message())
            }
        }
    }
}

impl fmt::Display for PullError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.event_message())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_normalise_as_containerd_does() {
        for (image, normalized) in [
            ("hello:v1", "docker.io/library/hello:v1"),
            ("hello", "docker.io/library/hello:latest"),
            ("nginx:1.27.3", "docker.io/library/nginx:1.27.3"),
            ("myrepo/api:2.1", "docker.io/myrepo/api:2.1"),
            ("docker.io/busybox", "docker.io/library/busybox:latest"),
            ("index.docker.io/library/busybox:1.37", "docker.io/library/busybox:1.37"),
            ("registry.k8s.io/pause:3.10", "registry.k8s.io/pause:3.10"),
            ("localhost:5000/app", "localhost:5000/app:latest"),
            ("ghcr.io/org/team/app:v1.2-rc_1", "ghcr.io/org/team/app:v1.2-rc_1"),
            (
                "hello@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
                "docker.io/library/hello@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            ),
        ] {
            let parsed = ImageReference::parse(image).unwrap_or_else(|e| panic!("{image}: {e}"));
            assert_eq!(parsed.normalized(), normalized, "{image}");
        }
    }

    #[test]
    fn bad_references_fail_with_the_kubelets_words() {
        for (image, error) in [
            (
                "Hello:V1",
                "couldn't parse image name \"Hello:V1\": invalid reference format: repository name (library/Hello) must be lowercase",
            ),
            ("hello:", "couldn't parse image name \"hello:\": invalid reference format"),
            ("", "couldn't parse image name \"\": invalid reference format"),
            ("hello world", "couldn't parse image name \"hello world\": invalid reference format"),
            (
                "registry.example.com//app",
                "couldn't parse image name \"registry.example.com//app\": invalid reference format",
            ),
            ("hello@sha256:abc", "couldn't parse image name \"hello@sha256:abc\": invalid reference format"),
            ("hello:-v1", "couldn't parse image name \"hello:-v1\": invalid reference format"),
        ] {
            assert_eq!(ImageReference::parse(image).unwrap_err(), error, "{image}");
        }
    }

    #[test]
    fn pseudo_digests_are_stable_and_well_formed() {
        let digest = pseudo_digest("docker.io/library/hello:v1");
        assert_eq!(digest, pseudo_digest("docker.io/library/hello:v1"));
        assert_ne!(digest, pseudo_digest("docker.io/library/hello:v2"));
        assert!(is_digest(&digest), "{digest}");
    }
}

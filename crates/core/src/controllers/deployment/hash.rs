//! The `pod-template-hash`: which ReplicaSet belongs to which template. Mirrors
//! `controller.ComputeHash` (fnv32a over the template and collisionCount) and
//! `rand.SafeEncodeString`, so names look like upstream's (`hello-6b85969876`).

use crate::api::pod::PodTemplateSpec;

/// The label (and selector key) a Deployment adds to each ReplicaSet and its pods.
pub const POD_TEMPLATE_HASH: &str = "pod-template-hash";

/// Characters `SafeEncodeString` maps onto (no vowels, no confusable digits).
const ALPHANUMS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

pub fn compute_hash(template: &PodTemplateSpec, collision_count: Option<i32>) -> String {
    let mut hash = Fnv32a::default();
    // Our canonical form of the template; deterministic on every target.
    hash.write(serde_json::to_string(template).unwrap_or_default().as_bytes());
    if let Some(count) = collision_count {
        hash.write(&(count as u32).to_le_bytes());
    }
    safe_encode(&hash.0.to_string())
}

/// `rand.SafeEncodeString`: each byte mapped onto the alphabet above.
pub(crate) fn safe_encode(s: &str) -> String {
    s.bytes().map(|b| ALPHANUMS[usize::from(b) % ALPHANUMS.len()] as char).collect()
}

struct Fnv32a(u32);

impl Default for Fnv32a {
    fn default() -> Self {
        Fnv32a(0x811c_9dc5)
    }
}

impl Fnv32a {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u32::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0193);
        }
    }
}

/// FNV-1 (32 bit), Go's `fnv.New32`: multiply, then xor (FNV-1a's order reversed). Upstream
/// hashes ControllerRevisions with it.
pub(crate) struct Fnv32(u32);

impl Default for Fnv32 {
    fn default() -> Self {
        Fnv32(0x811c_9dc5)
    }
}

impl Fnv32 {
    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = self.0.wrapping_mul(0x0100_0193);
            self.0 ^= u32::from(*b);
        }
    }

    pub(crate) fn value(&self) -> u32 {
        self.0
    }
}

/// Templates equal apart from the hash label (`EqualIgnoreHash`).
pub fn equal_ignore_hash(a: &PodTemplateSpec, b: &PodTemplateSpec) -> bool {
    let strip = |t: &PodTemplateSpec| {
        let mut t = t.clone();
        t.metadata.labels.remove(POD_TEMPLATE_HASH);
        t
    };
    strip(a) == strip(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv32a_matches_the_reference_vectors() {
        let mut h = Fnv32a::default();
        h.write(b"foobar");
        assert_eq!(h.0, 0xbf9c_f968);
    }

    #[test]
    fn encodes_decimal_digits_like_safe_encode_string() {
        assert_eq!(safe_encode("0123456789"), "456789bcdf");
        let t = PodTemplateSpec::default();
        let hash = compute_hash(&t, None);
        assert!(hash.len() <= 10 && hash.bytes().all(|b| ALPHANUMS.contains(&b)), "{hash}");
        assert_ne!(compute_hash(&t, Some(1)), hash);
    }
}

//! An extended resource's name as the scheduler keeps it: shared, with a hash compared before
//! the text, and kube-scheduler's "Insufficient <name>" reason made once. A GPU node refuses most
//! pods by looking up names such as `nvidia.com/mig-1g.10gb` that share their first 15 bytes;
//! the device plugin's names are one shared copy each, so a match is a pointer compare.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::sync::{Arc, OnceLock};

#[derive(Debug)]
struct Inner {
    hash: u64,
    /// Its bit among the device plugin's names, for `NodeFit`'s mask of what a node has.
    known_bit: u64,
    name: Box<str>,
    insufficient: Cow<'static, str>,
}

/// A scalar resource name (upstream `v1.ResourceName` for an extended resource).
#[derive(Clone)]
pub struct ScalarName(Arc<Inner>);

/// FNV-1a, 64 bits: stable on every target, so nothing depends on a process's hash seed.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3))
}

impl ScalarName {
    pub fn new(name: &str) -> ScalarName {
        let known = known();
        match known.binary_search_by(|k| k.as_str().cmp(name)) {
            Ok(i) => known[i].clone(),
            Err(_) => ScalarName::made(name, 0, Cow::Owned(format!("Insufficient {name}"))),
        }
    }

    fn made(name: &str, known_bit: u64, insufficient: Cow<'static, str>) -> ScalarName {
        ScalarName(Arc::new(Inner { hash: fnv1a(name), known_bit, name: name.into(), insufficient }))
    }

    /// Its bit in `ScalarResources::known_present`, or 0 for a name the device plugin never
    /// advertises.
    #[inline]
    pub fn known_bit(&self) -> u64 {
        self.0.known_bit
    }

    pub fn as_str(&self) -> &str {
        &self.0.name
    }

    /// Upstream `fitsRequest`'s reason when a node has too little of it.
    pub fn insufficient(&self) -> Cow<'static, str> {
        self.0.insufficient.clone()
    }
}

/// The device plugin's resource names, each made once (their reasons static).
fn known() -> &'static [ScalarName] {
    static KNOWN: OnceLock<Vec<ScalarName>> = OnceLock::new();
    KNOWN.get_or_init(|| {
        let names = crate::gpu::device_plugin::advertisable_resources();
        let reasons: &'static [String] =
            REASONS.get_or_init(|| names.iter().map(|n| format!("Insufficient {n}")).collect());
        let bits = (0..u64::BITS).map(|i| 1u64 << i).chain(std::iter::repeat(0));
        let named = names.iter().zip(reasons).zip(bits);
        named.map(|((name, reason), bit)| ScalarName::made(name, bit, Cow::Borrowed(reason.as_str()))).collect()
    })
}

static REASONS: OnceLock<Vec<String>> = OnceLock::new();

impl PartialEq for ScalarName {
    fn eq(&self, other: &ScalarName) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || (self.0.hash == other.0.hash && self.0.name == other.0.name)
    }
}

impl Eq for ScalarName {}

impl PartialOrd for ScalarName {
    fn partial_cmp(&self, other: &ScalarName) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ScalarName {
    fn cmp(&self, other: &ScalarName) -> Ordering {
        self.0.name.cmp(&other.0.name)
    }
}

impl fmt::Debug for ScalarName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0.name, f)
    }
}

impl fmt::Display for ScalarName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.name)
    }
}

/// Amounts by scalar name, sorted by name (upstream `Resource.ScalarResources`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScalarResources(Vec<Entry>);

/// One amount, its name's hash beside it: a lookup reads one contiguous list and follows a
/// name's pointer only when the hash matches.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    hash: u64,
    name: ScalarName,
    amount: i64,
}

impl ScalarResources {
    pub fn iter(&self) -> impl Iterator<Item = (&ScalarName, i64)> + '_ {
        self.0.iter().map(|e| (&e.name, e.amount))
    }

    /// The amount of `name` (0 when absent).
    pub fn get(&self, name: &str) -> i64 {
        let hash = fnv1a(name);
        self.0.iter().find(|e| e.hash == hash && e.name.as_str() == name).map_or(0, |e| e.amount)
    }

    /// The amount of `name`: the filter's lookup, a pointer compare for the device plugin's names.
    #[inline]
    pub fn of(&self, name: &ScalarName) -> i64 {
        let hash = name.0.hash;
        let same = |e: &&Entry| e.hash == hash && (Arc::ptr_eq(&e.name.0, &name.0) || e.name.0.name == name.0.name);
        self.0.iter().find(same).map_or(0, |e| e.amount)
    }

    pub fn entry(&mut self, name: &str) -> &mut i64 {
        match self.0.binary_search_by(|e| e.name.as_str().cmp(name)) {
            Ok(i) => &mut self.0[i].amount,
            Err(_) => self.entry_for(&ScalarName::new(name)),
        }
    }

    /// Like `entry`, sharing `name` when it is new here.
    pub fn entry_for(&mut self, name: &ScalarName) -> &mut i64 {
        let index = match self.0.binary_search_by(|e| e.name.cmp(name)) {
            Ok(i) => i,
            Err(i) => {
                self.0.insert(i, Entry { hash: name.0.hash, name: name.clone(), amount: 0 });
                i
            }
        };
        &mut self.0[index].amount
    }

    /// The bits of the device plugin's names this holds a positive amount of: a node's mask, so
    /// that a filter refuses a node without the pod's device from its compact record.
    pub fn known_present(&self) -> u64 {
        self.0.iter().filter(|e| e.amount > 0).fold(0, |mask, e| mask | e.name.known_bit())
    }

    pub fn all_zero(&self) -> bool {
        self.0.iter().all(|e| e.amount == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_compare_by_text_and_keep_the_schedulers_reason() {
        let mut resources = ScalarResources::default();
        *resources.entry("nvidia.com/mig-2g.20gb") += 2;
        *resources.entry("example.com/foo") += 1;
        *resources.entry_for(&ScalarName::new("nvidia.com/mig-1g.10gb")) += 7;
        let listed: Vec<String> = resources.iter().map(|(n, v)| format!("{n}={v}")).collect();
        assert_eq!(listed, ["example.com/foo=1", "nvidia.com/mig-1g.10gb=7", "nvidia.com/mig-2g.20gb=2"]);
        assert_eq!(resources.of(&ScalarName::new("nvidia.com/mig-1g.10gb")), 7);
        assert_eq!(resources.get("nvidia.com/mig-3g.40gb"), 0);
        assert_eq!(ScalarName::new("nvidia.com/mig-1g.10gb").insufficient(), "Insufficient nvidia.com/mig-1g.10gb");
        assert_eq!(ScalarName::new("example.com/foo").insufficient(), "Insufficient example.com/foo");
        let mig = ScalarName::new("nvidia.com/mig-1g.10gb").known_bit();
        assert_eq!(resources.known_present(), mig | ScalarName::new("nvidia.com/mig-2g.20gb").known_bit());
        assert_eq!(ScalarName::new("example.com/foo").known_bit(), 0);
    }

    #[test]
    fn every_device_plugin_name_has_a_bit_of_its_own() {
        // Past 64 names a name would go without one, and the filter would look it up instead.
        assert!(known().len() <= 64, "{} names", known().len());
        let all = known().iter().fold(0u64, |mask, name| {
            assert_eq!(mask & name.known_bit(), 0, "{name} shares a bit");
            mask | name.known_bit()
        });
        assert_eq!(all.count_ones() as usize, known().len());
    }
}

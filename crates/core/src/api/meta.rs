//! `ObjectMeta`, `OwnerReference`, `Uid` and `Time`: the metadata every object carries (metav1).
//!
//! Compact on purpose: uids are 128-bit integers, resourceVersions integers, timestamps virtual
//! milliseconds; all of them serialize as the strings the real API shows.

use super::string_map::StringMap;
use crate::sim::time::SimTime;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A UID, printed as an RFC 4122 version-4 UUID (`8c6bf5a2-…`), generated from the sim's seed.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Uid(pub u128);

impl Uid {
    /// Builds a v4-shaped UUID from 128 random bits (version and variant bits set as RFC 4122 says).
    pub fn from_random(bits: u128) -> Uid {
        let with_version = (bits & !(0xF << 76)) | (0x4 << 76);
        Uid((with_version & !(0x3 << 62)) | (0x2 << 62))
    }

    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }
}

impl fmt::Display for Uid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return Ok(());
        }
        let h = format!("{:032x}", self.0);
        write!(f, "{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32])
    }
}

impl fmt::Debug for Uid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Uid({self})")
    }
}

impl Serialize for Uid {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Uid {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Uid, D::Error> {
        let text = String::deserialize(d)?;
        let hex: String = text.chars().filter(|c| *c != '-').collect();
        u128::from_str_radix(&hex, 16).map(Uid).map_err(|_| serde::de::Error::custom(format!("invalid uid {text:?}")))
    }
}

/// A timestamp (`metav1.Time`): virtual time, serialized as RFC 3339.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(pub SimTime);

impl Serialize for Time {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.to_rfc3339())
    }
}

impl<'de> Deserialize<'de> for Time {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Time, D::Error> {
        let text = String::deserialize(d)?;
        SimTime::parse_rfc3339(&text).map(Time).ok_or_else(|| {
            serde::de::Error::custom(format!("parsing time {text:?} as \"2006-01-02T15:04:05Z07:00\": cannot parse"))
        })
    }
}

/// A timestamp with microseconds (`metav1.MicroTime`: Leases' and events.k8s.io's times).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MicroTime(pub SimTime);

impl Serialize for MicroTime {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.to_rfc3339_micro())
    }
}

impl<'de> Deserialize<'de> for MicroTime {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<MicroTime, D::Error> {
        let text = String::deserialize(d)?;
        SimTime::parse_rfc3339_micro(&text).map(MicroTime).ok_or_else(|| {
            let layout = "2006-01-02T15:04:05.000000Z07:00";
            serde::de::Error::custom(format!("parsing time {text:?} as \"{layout}\": cannot parse"))
        })
    }
}

/// `resourceVersion`: an integer here, a string on the wire (clients must treat it as opaque).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ResourceVersion(pub u64);

impl ResourceVersion {
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }
}

impl Serialize for ResourceVersion {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for ResourceVersion {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ResourceVersion, D::Error> {
        let text = String::deserialize(d)?;
        if text.is_empty() {
            return Ok(ResourceVersion(0));
        }
        text.parse()
            .map(ResourceVersion)
            .map_err(|_| serde::de::Error::custom(format!("invalid resourceVersion {text:?}")))
    }
}

/// metav1.OwnerReference: who owns this object (the garbage collector follows these).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OwnerReference {
    pub api_version: String,
    pub kind: String,
    pub name: String,
    pub uid: Uid,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_owner_deletion: Option<bool>,
}

/// metav1.ObjectMeta, with the fields a lab can meet.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ObjectMeta {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub generate_name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    #[serde(default, skip_serializing_if = "Uid::is_empty")]
    pub uid: Uid,
    #[serde(default, skip_serializing_if = "ResourceVersion::is_empty")]
    pub resource_version: ResourceVersion,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub generation: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_timestamp: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_grace_period_seconds: Option<i64>,
    #[serde(default, skip_serializing_if = "StringMap::is_empty")]
    pub labels: StringMap,
    #[serde(default, skip_serializing_if = "StringMap::is_empty")]
    pub annotations: StringMap,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub owner_references: Vec<OwnerReference>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub finalizers: Vec<String>,
    /// Who owns which fields (server-side apply); kept only for writes made through the API
    /// with a field manager (see `apiserver::managed_fields`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub managed_fields: Vec<super::managed_fields_entry::ManagedFieldsEntry>,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

impl ObjectMeta {
    /// A meta with just a name (and namespace, when given): what builders and tests start from.
    pub fn named(namespace: &str, name: &str) -> ObjectMeta {
        ObjectMeta { name: name.to_string(), namespace: namespace.to_string(), ..Default::default() }
    }

    /// The owner reference with `controller: true`, if any (upstream `metav1.GetControllerOf`).
    pub fn controller_ref(&self) -> Option<&OwnerReference> {
        self.owner_references.iter().find(|r| r.controller == Some(true))
    }

    pub fn is_being_deleted(&self) -> bool {
        self.deletion_timestamp.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uids_print_as_v4_uuids_and_parse_back() {
        let uid = Uid::from_random(0x0123_4567_89ab_cdef_0123_4567_89ab_cdef);
        let text = uid.to_string();
        assert_eq!(text, "01234567-89ab-4def-8123-456789abcdef");
        let back: Uid = serde_json::from_value(serde_json::json!(text)).unwrap();
        assert_eq!(back, uid);
    }

    #[test]
    fn metadata_round_trips_with_kubernetes_field_names() {
        let yaml = "name: hello\nnamespace: default\nresourceVersion: \"12\"\ncreationTimestamp: \"2025-01-01T00:00:05Z\"\nlabels:\n  app: hello\n";
        let meta: ObjectMeta = serde_yaml::from_str(yaml).unwrap();
        assert_eq!(meta.resource_version, ResourceVersion(12));
        assert_eq!(meta.creation_timestamp, Some(Time(SimTime(5000))));
        let json = serde_json::to_string(&meta).unwrap();
        assert_eq!(
            json,
            r#"{"name":"hello","namespace":"default","resourceVersion":"12","creationTimestamp":"2025-01-01T00:00:05Z","labels":{"app":"hello"}}"#
        );
    }
}

//! The managers of an object, read from and written back to `metadata.managedFields`: each
//! one's identity (manager, operation, subresource, and for updates the apiVersion, as
//! upstream's `BuildManagerIdentifier`), its field set and when it last changed something.
//! Written back sorted as upstream's `sortEncodedManagedFields`.

use super::field_set::FieldSet;
use super::fields_v1;
use crate::api::managed_fields_entry::ManagedFieldsEntry;
use crate::api::meta::Time;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Operation {
    Apply,
    Update,
}

impl Operation {
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Apply => "Apply",
            Operation::Update => "Update",
        }
    }
}

/// Who writes: the field manager and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manager {
    pub name: String,
    pub operation: Operation,
    pub api_version: String,
    pub subresource: String,
}

impl Manager {
    /// An `Update` manager of apps/v1 (the tests' usual writer).
    #[cfg(test)]
    pub fn apps_updater(name: &str, subresource: &str) -> Manager {
        Manager {
            name: name.into(),
            operation: Operation::Update,
            api_version: "apps/v1".into(),
            subresource: subresource.into(),
        }
    }

    /// Whether `self` and `other` are one manager: appliers match whatever apiVersion they
    /// applied with.
    pub fn same(&self, other: &Manager) -> bool {
        self.name == other.name
            && self.operation == other.operation
            && self.subresource == other.subresource
            && (self.operation == Operation::Apply || self.api_version == other.api_version)
    }
}

/// One manager's claim.
#[derive(Clone, Debug, PartialEq)]
pub struct Owner {
    pub manager: Manager,
    pub set: FieldSet,
    pub time: Option<Time>,
}

/// An object's owners.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Managed(pub Vec<Owner>);

impl Managed {
    pub fn decode(entries: &[ManagedFieldsEntry]) -> Managed {
        let owners = entries.iter().filter_map(|entry| {
            let operation = match entry.operation.as_str() {
                "Apply" => Operation::Apply,
                "Update" => Operation::Update,
                _ => return None,
            };
            let manager = Manager {
                name: entry.manager.clone(),
                operation,
                api_version: entry.api_version.clone(),
                subresource: entry.subresource.clone(),
            };
            let set = entry.fields_v1.as_ref().map(fields_v1::from_json).unwrap_or_default();
            Some(Owner { manager, set, time: entry.time })
        });
        Managed(owners.collect())
    }

    pub fn encode(&self) -> Vec<ManagedFieldsEntry> {
        let mut owners: Vec<&Owner> = self.0.iter().filter(|o| !o.set.is_empty()).collect();
        owners.sort_by(|p, q| {
            let (a, b) = (&p.manager, &q.manager);
            (a.operation, seconds(p.time), &a.name, &a.api_version, &a.subresource).cmp(&(
                b.operation,
                seconds(q.time),
                &b.name,
                &b.api_version,
                &b.subresource,
            ))
        });
        owners
            .into_iter()
            .map(|owner| ManagedFieldsEntry {
                manager: owner.manager.name.clone(),
                operation: owner.manager.operation.as_str().to_string(),
                api_version: owner.manager.api_version.clone(),
                time: owner.time,
                fields_type: "FieldsV1".to_string(),
                fields_v1: Some(fields_v1::to_json(&owner.set)),
                subresource: owner.manager.subresource.clone(),
            })
            .collect()
    }

    pub fn find(&self, manager: &Manager) -> Option<&Owner> {
        self.0.iter().find(|o| o.manager.same(manager))
    }

    /// Sets `manager`'s fields (adding it when new); the entry takes `manager`'s apiVersion.
    pub fn set(&mut self, manager: &Manager, set: FieldSet, time: Option<Time>) {
        self.0.retain(|o| !o.manager.same(manager));
        self.0.push(Owner { manager: manager.clone(), set, time });
    }

    /// Every field some manager other than `manager` owns.
    pub fn owned_by_others(&self, manager: &Manager) -> FieldSet {
        self.0.iter().filter(|o| !o.manager.same(manager)).fold(FieldSet::default(), |all, o| all.union(&o.set))
    }

    /// Drops managers left owning nothing.
    pub fn drop_empty(&mut self) {
        self.0.retain(|o| !o.set.is_empty());
    }
}

/// Whole seconds, as upstream compares entries' times (`Time.Unix()`); none is zero.
fn seconds(time: Option<Time>) -> u64 {
    time.map_or(0, |t| t.0.0 / 1000)
}

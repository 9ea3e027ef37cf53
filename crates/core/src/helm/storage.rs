//! Helm's Secrets storage driver (pkg/storage/driver/secrets.go): each revision a Secret
//! `sh.helm.release.v1.NAME.vN` of type `helm.sh/release.v1`, labelled name, owner, status
//! and version, holding base64(gzip(JSON)) — read and written through the API door.

use crate::api::secret::{base64_decode, base64_encode};
use crate::api::{Kind, Resource, Secret};
use crate::apiserver::{Client, Reader};
use crate::sim::Sim;
use crate::store::DeleteOptions;
use crate::store::field_selector::FieldSelector;

use super::gzip;
use super::release::Release;

/// Every revision of `name` in `namespace`, oldest first.
pub fn history(sim: &Sim, namespace: &str, name: &str) -> Result<Vec<Release>, String> {
    query(sim, Some(namespace), &format!("owner=helm,name={name}"))
}

/// Every revision of every release, in one namespace or all (`None`).
pub fn all(sim: &Sim, namespace: Option<&str>) -> Result<Vec<Release>, String> {
    query(sim, namespace, "owner=helm")
}

fn query(sim: &Sim, namespace: Option<&str>, selector: &str) -> Result<Vec<Release>, String> {
    let selector = crate::api::labels::Selector::parse(selector).map_err(|e| format!("{e:?}"))?;
    let reader = Reader::new(sim.store(), sim.kubectl_user());
    let list = reader
        .list(Kind::Secret, namespace, &selector, &FieldSelector::everything())
        .map_err(|e| format!("query: failed to query with labels: {}", e.message()))?;
    let mut releases: Vec<Release> =
        list.items.into_iter().filter_map(Secret::from_object).filter_map(|s| decode(&s)).collect();
    releases.sort_by(|a, b| (&a.namespace, &a.name, a.version).cmp(&(&b.namespace, &b.name, b.version)));
    Ok(releases)
}

/// The release a Secret holds, if it holds one.
fn decode(secret: &Secret) -> Option<Release> {
    let stored = base64_decode(secret.data.get("release")?)?;
    let packed = base64_decode(std::str::from_utf8(&stored).ok()?)?;
    let json = gzip::decompress(&packed).unwrap_or(packed);
    serde_json::from_slice(&json).ok()
}

/// The Secret for a release: `createdAt` or `modifiedAt` set as Helm sets it.
fn encode(sim: &Sim, release: &Release, time_label: &str) -> Secret {
    let json = serde_json::to_vec(release).unwrap_or_default();
    let stored = base64_encode(&gzip::compress(&json));
    let mut secret = Secret::default();
    secret.metadata.name = release.storage_key();
    secret.metadata.namespace = release.namespace.clone();
    let labels = &mut secret.metadata.labels;
    labels.insert(time_label, (sim.now().unix_millis() / 1000).to_string());
    labels.insert("name", release.name.as_str());
    labels.insert("owner", "helm");
    labels.insert("status", release.info.status.as_str());
    labels.insert("version", release.version.to_string());
    secret.type_ = Some("helm.sh/release.v1".into());
    secret.data.insert("release", base64_encode(stored.as_bytes()));
    secret
}

fn client(sim: &mut Sim) -> Client<'_> {
    let user = sim.kubectl_user();
    Client::new(sim.store_mut(), user)
}

pub fn create(sim: &mut Sim, release: &Release) -> Result<(), String> {
    let secret = encode(sim, release, "createdAt");
    client(sim).create(secret.into_object()).map(|_| ()).map_err(|e| match e {
        crate::error::ApiError::AlreadyExists { .. } => "release: already exists".to_string(),
        other => format!("create: failed to create: {}", other.message()),
    })
}

/// Replaces the revision's Secret (the driver's Update writes the whole object).
pub fn update(sim: &mut Sim, release: &Release) -> Result<(), String> {
    let mut secret = encode(sim, release, "modifiedAt");
    let mut api = client(sim);
    if let Ok(live) = api.get(Kind::Secret, &release.namespace, &release.storage_key()) {
        secret.metadata.resource_version = live.metadata().resource_version;
        secret.metadata.uid = live.metadata().uid;
        secret.metadata.creation_timestamp = live.metadata().creation_timestamp;
    }
    api.update(secret.into_object()).map(|_| ()).map_err(|e| format!("update: failed to update: {}", e.message()))
}

pub fn delete(sim: &mut Sim, release: &Release) -> Result<(), String> {
    let key = release.storage_key();
    client(sim)
        .delete(Kind::Secret, &release.namespace, &key, &DeleteOptions::default())
        .map(|_| ())
        .map_err(|e| format!("delete: failed to delete release: {key}: {}", e.message()))
}

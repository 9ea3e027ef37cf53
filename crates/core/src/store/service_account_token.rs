//! TokenRequest (`POST …/serviceaccounts/NAME/token`, pkg/registry/core/serviceaccount/storage/
//! token.go): a signed JWT naming the service account, with the claims of
//! pkg/serviceaccount/claims.go. The lab has no signing key: the signature is random bytes of
//! an RS256 signature's length, drawn from the lab's own stream, so a token looks and decodes
//! like a real one (header and claims) and is the same for the same seed.

use super::{Store, UserInfo};
use crate::api::secret::base64_encode;
use crate::api::{Kind, ServiceAccount};
use crate::error::ApiError;
use crate::sim::random::Purpose;
use crate::sim::time::SIM_EPOCH_UNIX_SECONDS;
use serde_json::json;

/// kubeadm's `--service-account-issuer`, also the default audience.
pub const ISSUER: &str = "https://kubernetes.default.svc.cluster.local";
/// A TokenRequest's default `expirationSeconds`.
pub const DEFAULT_EXPIRATION_SECONDS: i64 = 3600;

impl Store {
    /// Issues a token for `namespace/name` as `user` asks (authorized as `create` on
    /// `serviceaccounts/token`).
    pub fn create_token(
        &mut self,
        user: &UserInfo,
        (namespace, name): (&str, &str),
        expiration_seconds: Option<i64>,
        audiences: &[String],
    ) -> Result<String, ApiError> {
        self.authorize_as(user, ("create", Kind::ServiceAccount), namespace, name, "token")?;
        let account = self.get::<ServiceAccount>(namespace, name)?;
        let uid = account.metadata.uid.to_string();
        let issued = SIM_EPOCH_UNIX_SECONDS + (self.now().as_millis() / 1000) as i64;
        let expires = issued + expiration_seconds.unwrap_or(DEFAULT_EXPIRATION_SECONDS);
        let audiences = if audiences.is_empty() { vec![ISSUER.to_string()] } else { audiences.to_vec() };
        let jti = crate::api::meta::Uid::from_random(self.random_bits()).to_string();
        let claims = json!({
            "aud": audiences,
            "exp": expires,
            "iat": issued,
            "iss": ISSUER,
            "jti": jti,
            "kubernetes.io": {"namespace": namespace, "serviceaccount": {"name": name, "uid": uid}},
            "nbf": issued,
            "sub": format!("system:serviceaccount:{namespace}:{name}"),
        });
        let signature: Vec<u8> = (0..256).map(|_| self.random_below(Purpose::Token, 256) as u8).collect();
        Ok(jws(&claims, &signature))
    }

    fn random_bits(&mut self) -> u128 {
        let high = self.random_below(Purpose::Token, u64::MAX);
        let low = self.random_below(Purpose::Token, u64::MAX);
        u128::from(high) << 64 | u128::from(low)
    }
}

/// `ExpirationExtensionSeconds`: a kubelet's `3607`-second token is issued for a year
/// (`--service-account-extend-token-expiration`, on by default), warning after the hour.
pub const EXTENDED_EXPIRATION_SECONDS: i64 = 24 * 365 * 60 * 60;

/// What a pod-bound token names: the pod, its node and its account.
pub struct BoundTo<'a> {
    pub pod: &'a crate::api::Pod,
    pub account_uid: &'a str,
    pub node: Option<&'a crate::api::Node>,
    /// When the kubelet asked for it, in Unix seconds.
    pub issued: i64,
}

/// The token a kubelet gets for a pod's projected `serviceAccountToken` source: TokenRequest
/// with a `boundObjectRef` to the pod, its expiry extended to a year and `warnafter` set, as
/// the API server answers `expirationSeconds: 3607`. Made without a draw (the kubelet reads
/// through a shared reference): jti and signature come from a hash of what it names, so a
/// pod keeps its token across syncs, as the kubelet's token manager caches it.
pub fn bound_token(bound: &BoundTo<'_>) -> String {
    let meta = &bound.pod.metadata;
    let account = bound.pod.spec.service_account_name.as_deref().unwrap_or("default");
    let mut seed =
        crate::sim::rng::Rng::new(fnv64(&[&meta.uid.to_string(), bound.account_uid, &bound.issued.to_string()]));
    let jti = crate::api::meta::Uid::from_random(u128::from(seed.next_u64()) << 64 | u128::from(seed.next_u64()));
    let mut kubernetes_io = json!({
        "namespace": meta.namespace,
        "pod": {"name": meta.name, "uid": meta.uid.to_string()},
        "serviceaccount": {"name": account, "uid": bound.account_uid},
        "warnafter": bound.issued + super::admission::service_account_volume::EXPIRATION_SECONDS,
    });
    if let Some(node) = bound.node {
        kubernetes_io["node"] = json!({"name": node.metadata.name, "uid": node.metadata.uid.to_string()});
    }
    let claims = json!({
        "aud": [ISSUER],
        "exp": bound.issued + EXTENDED_EXPIRATION_SECONDS,
        "iat": bound.issued,
        "iss": ISSUER,
        "jti": jti.to_string(),
        "kubernetes.io": kubernetes_io,
        "nbf": bound.issued,
        "sub": format!("system:serviceaccount:{}:{account}", meta.namespace),
    });
    let signature: Vec<u8> = (0..256).map(|_| seed.below(256) as u8).collect();
    jws(&claims, &signature)
}

/// JWS compact serialization: header, claims and signature, each base64url. Every token
/// names the one signing key (`kid`: upstream's hash of `sa.pub`, here a fixed 32 bytes).
fn jws(claims: &serde_json::Value, signature: &[u8]) -> String {
    let mut key = crate::sim::rng::Rng::new(fnv64(&["sa.pub"]));
    let key_id: Vec<u8> = (0..32).map(|_| key.below(256) as u8).collect();
    let header = json!({"alg": "RS256", "kid": base64url(&key_id)});
    format!(
        "{}.{}.{}",
        base64url(header.to_string().as_bytes()),
        base64url(claims.to_string().as_bytes()),
        base64url(signature)
    )
}

/// FNV-1a over the parts, for a seed that follows what a token names.
fn fnv64(parts: &[&str]) -> u64 {
    parts
        .iter()
        .flat_map(|p| p.bytes().chain([0]))
        .fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}

/// Base64url without padding, as JWS compact serialization writes each part.
fn base64url(bytes: &[u8]) -> String {
    base64_encode(bytes).trim_end_matches('=').replace('+', "-").replace('/', "_")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ObjectMeta;
    use crate::api::secret::base64_decode;

    #[test]
    fn a_token_names_its_service_account_and_expires_in_an_hour() {
        let mut store = Store::new(1);
        store.act_as(UserInfo::admin());
        store.create(ServiceAccount { metadata: ObjectMeta::named("default", "robot"), ..Default::default() }).unwrap();
        let token = store.create_token(&UserInfo::admin(), ("default", "robot"), None, &[]).unwrap();
        let parts: Vec<&str> = token.split('.').collect();
        assert_eq!(parts.len(), 3);
        assert_eq!(parts[2].len(), 342, "an RS256 signature of a 2048-bit key");
        let padded = format!("{}{}", parts[1], "=".repeat((4 - parts[1].len() % 4) % 4));
        let claims: serde_json::Value =
            serde_json::from_slice(&base64_decode(&padded.replace('-', "+").replace('_', "/")).unwrap()).unwrap();
        assert_eq!(claims["sub"], "system:serviceaccount:default:robot");
        assert_eq!(claims["exp"].as_i64().unwrap() - claims["iat"].as_i64().unwrap(), 3600);
        let missing = store.create_token(&UserInfo::admin(), ("default", "nobody"), None, &[]).unwrap_err();
        assert_eq!(missing.to_string(), "Error from server (NotFound): serviceaccounts \"nobody\" not found");
    }

    #[test]
    fn a_pods_token_is_bound_to_it_for_a_year_and_warns_after_the_hour() {
        let pod: crate::api::Pod = serde_json::from_value(json!({
            "metadata": {"name": "app", "namespace": "dev", "uid": "11111111-2222-3333-4444-555555555555"},
            "spec": {"serviceAccountName": "robot", "containers": []},
        }))
        .unwrap();
        let bound = BoundTo { pod: &pod, account_uid: "aaaa", node: None, issued: 1_000 };
        let token = bound_token(&bound);
        assert_eq!(token, bound_token(&bound), "the same pod keeps its token");
        let claims = token.split('.').nth(1).unwrap();
        let padded = format!("{claims}{}", "=".repeat((4 - claims.len() % 4) % 4));
        let claims: serde_json::Value =
            serde_json::from_slice(&base64_decode(&padded.replace('-', "+").replace('_', "/")).unwrap()).unwrap();
        assert_eq!(claims["sub"], "system:serviceaccount:dev:robot");
        assert_eq!(claims["exp"], 1_000 + 31_536_000);
        assert_eq!(claims["kubernetes.io"]["warnafter"], 1_000 + 3_607);
        assert_eq!(claims["kubernetes.io"]["pod"]["name"], "app");
    }
}

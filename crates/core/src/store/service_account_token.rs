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
        let key_id: Vec<u8> = (0..32).map(|_| self.random_below(Purpose::Token, 256) as u8).collect();
        let header = json!({"alg": "RS256", "kid": base64url(&key_id)});
        let signature: Vec<u8> = (0..256).map(|_| self.random_below(Purpose::Token, 256) as u8).collect();
        Ok(format!(
            "{}.{}.{}",
            base64url(header.to_string().as_bytes()),
            base64url(claims.to_string().as_bytes()),
            base64url(&signature)
        ))
    }

    fn random_bits(&mut self) -> u128 {
        let high = self.random_below(Purpose::Token, u64::MAX);
        let low = self.random_below(Purpose::Token, u64::MAX);
        u128::from(high) << 64 | u128::from(low)
    }
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
}

//! `Body<T>`: axum's `Json<T>` extractor whose refusals are problem documents (`ApiError`)
//! rather than plain text.

use super::problem::ApiError;
use axum::Json;
use axum::extract::{FromRequest, Request};
use serde::de::DeserializeOwned;

pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Body<T>, ApiError> {
        let Json(value) = Json::<T>::from_request(request, state).await?;
        Ok(Body(value))
    }
}

//! Talking to `kubelab serve`: whether there is one and who is signed in, HTTP and WebSocket.

pub mod api_client;
pub mod live_socket;
pub mod server_context;

//! SPDY/3.1 as moby/spdystream speaks it: the framing `kubectl port-forward` tunnels.

pub mod dictionary;
pub mod frame;
pub mod headers;
pub mod zlib;

//! Who a request comes from, for rate limits: the peer's address, or — when the peer is a
//! proxy the operator trusts (`kubelab serve --trusted-proxy`) — the client it forwards for
//! (`X-Forwarded-For`, read from the right, skipping trusted hops, as nginx's realip does).
//! IPv6 addresses count per /64: one host is usually given a whole /64 and can pick any.

use axum::http::HeaderMap;
use std::net::{IpAddr, Ipv6Addr};

/// The client's address as a rate-limit key: `203.0.113.7`, or `2001:db8:1:2::/64`.
pub fn client_key(peer: Option<IpAddr>, headers: &HeaderMap, trusted_proxies: &[IpAddr]) -> String {
    let Some(peer) = peer else { return "unknown".into() };
    let client =
        if trusted_proxies.contains(&canonical(peer)) { forwarded_for(headers, trusted_proxies) } else { None };
    group(client.unwrap_or(peer))
}

/// The rightmost address in `X-Forwarded-For` that is not a trusted proxy (what the nearest
/// untrusted hop said it was; anything left of it could have been made up by the client).
fn forwarded_for(headers: &HeaderMap, trusted_proxies: &[IpAddr]) -> Option<IpAddr> {
    let hops: Vec<IpAddr> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|hop| hop.trim().parse().ok())
        .collect();
    hops.into_iter().rev().find(|hop| !trusted_proxies.contains(&canonical(*hop)))
}

/// IPv4-mapped IPv6 (`::ffff:192.0.2.1`, a dual-stack socket's view of IPv4) as IPv4.
fn canonical(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(address, IpAddr::V4),
        v4 => v4,
    }
}

fn group(address: IpAddr) -> String {
    match canonical(address) {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("{}/64", Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn forwarded(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", value.parse().unwrap());
        headers
    }

    #[test]
    fn ipv6_hosts_count_per_slash_64_and_mapped_ipv4_as_ipv4() {
        let none = HeaderMap::new();
        assert_eq!(client_key(Some(ip("2001:db8:1:2::5")), &none, &[]), "2001:db8:1:2::/64");
        assert_eq!(client_key(Some(ip("2001:db8:1:2:ffff::9")), &none, &[]), "2001:db8:1:2::/64");
        assert_eq!(client_key(Some(ip("::ffff:192.0.2.1")), &none, &[]), "192.0.2.1");
        assert_eq!(client_key(None, &none, &[]), "unknown");
    }

    #[test]
    fn forwarded_for_counts_only_from_a_trusted_proxy() {
        let proxy = ip("10.0.0.1");
        let headers = forwarded("198.51.100.9, 203.0.113.7");
        assert_eq!(client_key(Some(proxy), &headers, &[proxy]), "203.0.113.7", "the hop the proxy saw");
        assert_eq!(
            client_key(Some(ip("192.0.2.50")), &headers, &[proxy]),
            "192.0.2.50",
            "anyone else's header is ignored"
        );
        let chained = forwarded("203.0.113.7, 10.0.0.2");
        assert_eq!(client_key(Some(proxy), &chained, &[proxy, ip("10.0.0.2")]), "203.0.113.7");
        assert_eq!(client_key(Some(proxy), &forwarded("junk"), &[proxy]), "10.0.0.1", "nothing usable: the proxy");
    }
}

//! Which network addresses the crawler may talk to.
//!
//! In: IP addresses (literal hosts of URLs, or what DNS resolution returned).
//! Out: allowed or refused. Private, loopback, link-local, unspecified,
//! carrier-grade NAT and multicast addresses are refused unless
//! `[fetch] allow_private_addresses` is on, so a hostile page cannot point the
//! crawler at the machine's own services or the local network (SSRF).
//!
//! [`GuardedResolver`] applies the rule after DNS resolution: reqwest calls it
//! for every connection, so it covers every redirect hop too. IP-literal hosts
//! never reach a resolver; the fetcher checks them with [`url_host_refused`].

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use url::{Host, Url};

/// True when `ip` is not a public unicast address.
pub fn is_non_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => non_public_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return non_public_v4(v4);
            }
            let first = v6.segments()[0];
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                // fc00::/7 unique local, fe80::/10 link-local
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
                || non_public_v6_prefix(v6)
        }
    }
}

fn non_public_v4(v4: Ipv4Addr) -> bool {
    let [a, b, ..] = v4.octets();
    v4.is_private()
        || v4.is_loopback()
        || v4.is_link_local()
        || v4.is_unspecified()
        || v4.is_broadcast()
        || v4.is_multicast()
        || a == 0
        // 100.64.0.0/10: carrier-grade NAT, private in practice.
        || (a == 100 && (64..128).contains(&b))
}

/// IPv4-compatible (::a.b.c.d, deprecated) addresses reach IPv4 hosts too.
fn non_public_v6_prefix(v6: Ipv6Addr) -> bool {
    let s = v6.segments();
    if s[..6].iter().all(|&x| x == 0) {
        let v4 = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
        return non_public_v4(v4);
    }
    false
}

/// `Some(host)` when the URL's host is an IP literal that is refused.
pub fn url_host_refused(url: &Url, allow_private: bool) -> Option<String> {
    if allow_private {
        return None;
    }
    let ip = match url.host()? {
        Host::Ipv4(v4) => IpAddr::V4(v4),
        Host::Ipv6(v6) => IpAddr::V6(v6),
        // `localhost` resolves locally; the resolver refuses what it yields.
        Host::Domain(_) => return None,
    };
    is_non_public(ip).then(|| ip.to_string())
}

/// Raised by [`GuardedResolver`] when every address of a name is refused;
/// the fetcher finds it in reqwest's error chain to report `blocked_address`.
#[derive(Debug, thiserror::Error)]
#[error("{name} resolves only to refused (private/loopback/link-local) addresses")]
pub struct AddressRefused {
    pub name: String,
}

/// System DNS resolution with non-public addresses filtered out.
#[derive(Debug, Clone, Copy)]
pub struct GuardedResolver {
    pub allow_private: bool,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_private = self.allow_private;
        let host = name.as_str().to_string();
        Box::pin(async move {
            let found: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let kept: Vec<SocketAddr> = found
                .iter()
                .copied()
                .filter(|a| allow_private || !is_non_public(a.ip()))
                .collect();
            if kept.is_empty() && !found.is_empty() {
                return Err(Box::new(AddressRefused { name: host }) as _);
            }
            let addrs: Addrs = Box::new(kept.into_iter());
            Ok(addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn non_public_ranges_are_refused() {
        for s in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
        ] {
            assert!(is_non_public(ip(s)), "{s} should be refused");
        }
        for s in ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "100.128.0.1"] {
            assert!(!is_non_public(ip(s)), "{s} should be allowed");
        }
    }

    #[test]
    fn ip_literal_hosts_are_checked_unless_allowed() {
        let u = Url::parse("http://127.0.0.1:8080/x").unwrap();
        assert_eq!(url_host_refused(&u, false).as_deref(), Some("127.0.0.1"));
        assert_eq!(url_host_refused(&u, true), None);
        let u = Url::parse("http://[::1]/x").unwrap();
        assert!(url_host_refused(&u, false).is_some());
        let u = Url::parse("http://example.com/x").unwrap();
        assert_eq!(url_host_refused(&u, false), None);
    }
}

//! Which network addresses the crawler may talk to.
//!
//! In: IP addresses (literal hosts of URLs, or what DNS resolution returned).
//! Out: allowed or refused. Every range of the IANA IPv4 and IPv6
//! Special-Purpose Address Registries (RFC 6890 and its updates, as of
//! November 2026) is refused, plus multicast and, for IPv6, everything
//! outside global unicast `2000::/3`, unless `[fetch] allow_private_addresses`
//! is on (or `extract --allow-private`): a hostile page must not point the
//! crawler at the machine's own services, the local network, or a relay that
//! reaches them (SSRF). Addresses that carry an IPv4 address inside
//! (IPv4-mapped `::ffff:0:0/96`, NAT64 `64:ff9b::/96`) are judged by that
//! IPv4 address: on an IPv6-only network with DNS64 every public host is
//! reached through NAT64, and `64:ff9b::7f00:1` is 127.0.0.1.
//!
//! [`GuardedResolver`] applies the rule after DNS resolution: reqwest calls it
//! for every connection, so it covers every redirect hop too. IP-literal hosts
//! never reach a resolver; the fetcher checks them with [`url_host_refused`].

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use url::{Host, Url};

/// The IPv4 ranges refused: the IANA IPv4 Special-Purpose Address Registry
/// (every entry, also those it marks globally reachable: a news site is never
/// served from an anycast relay or AS112), multicast and the reserved block.
const REFUSED_V4: &[(Ipv4Addr, u8, &str)] = &[
    (Ipv4Addr::new(0, 0, 0, 0), 8, "\"this network\""),
    (Ipv4Addr::new(10, 0, 0, 0), 8, "private-use"),
    (
        Ipv4Addr::new(100, 64, 0, 0),
        10,
        "shared address space (CGN)",
    ),
    (Ipv4Addr::new(127, 0, 0, 0), 8, "loopback"),
    (Ipv4Addr::new(169, 254, 0, 0), 16, "link-local"),
    (Ipv4Addr::new(172, 16, 0, 0), 12, "private-use"),
    (Ipv4Addr::new(192, 0, 0, 0), 24, "IETF protocol assignments"),
    (
        Ipv4Addr::new(192, 0, 2, 0),
        24,
        "documentation (TEST-NET-1)",
    ),
    (Ipv4Addr::new(192, 31, 196, 0), 24, "AS112-v4"),
    (Ipv4Addr::new(192, 52, 193, 0), 24, "AMT"),
    (Ipv4Addr::new(192, 88, 99, 0), 24, "6to4 relay anycast"),
    (Ipv4Addr::new(192, 168, 0, 0), 16, "private-use"),
    (
        Ipv4Addr::new(192, 175, 48, 0),
        24,
        "AS112 direct delegation",
    ),
    (Ipv4Addr::new(198, 18, 0, 0), 15, "benchmarking"),
    (
        Ipv4Addr::new(198, 51, 100, 0),
        24,
        "documentation (TEST-NET-2)",
    ),
    (
        Ipv4Addr::new(203, 0, 113, 0),
        24,
        "documentation (TEST-NET-3)",
    ),
    (Ipv4Addr::new(224, 0, 0, 0), 4, "multicast"),
    // Includes 255.255.255.255, limited broadcast.
    (Ipv4Addr::new(240, 0, 0, 0), 4, "reserved"),
];

/// The IPv6 ranges inside global unicast `2000::/3` that are refused: the
/// IANA IPv6 Special-Purpose Address Registry entries there (those outside
/// `2000::/3` are refused as a whole; see [`v6_refusal`]).
const REFUSED_V6_GLOBAL: &[(Ipv6Addr, u8, &str)] = &[
    // Teredo 2001::/32, benchmarking 2001:2::/48, ORCHID, AMT, AS112, DRIP...
    (
        Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0),
        23,
        "IETF protocol assignments",
    ),
    (
        Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0),
        32,
        "documentation",
    ),
    (Ipv6Addr::new(0x2002, 0, 0, 0, 0, 0, 0, 0), 16, "6to4"),
    (
        Ipv6Addr::new(0x2620, 0x4f, 0x8000, 0, 0, 0, 0, 0),
        48,
        "AS112 direct delegation",
    ),
    (
        Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0),
        20,
        "documentation",
    ),
];

/// True when `ip` is not a public unicast address.
pub fn is_non_public(ip: IpAddr) -> bool {
    refusal(ip).is_some()
}

/// Why `ip` is refused (the registry's name for its range), or `None` for a
/// public unicast address.
pub fn refusal(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => v4_refusal(v4),
        IpAddr::V6(v6) => v6_refusal(v6),
    }
}

fn v4_refusal(v4: Ipv4Addr) -> Option<&'static str> {
    let bits = u32::from(v4);
    REFUSED_V4
        .iter()
        .find(|(net, len, _)| prefix_matches(bits.into(), u32::from(*net).into(), *len, 32))
        .map(|(_, _, name)| *name)
}

fn v6_refusal(v6: Ipv6Addr) -> Option<&'static str> {
    let bits = u128::from(v6);
    let s = v6.segments();
    // ::ffff:0:0/96, IPv4-mapped: the socket connects to the IPv4 address.
    if let Some(v4) = v6.to_ipv4_mapped() {
        return v4_refusal(v4);
    }
    // 64:ff9b::/96, NAT64 well-known prefix: the translator connects to the
    // IPv4 address in the last 32 bits.
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return v4_refusal(Ipv4Addr::from(bits as u32));
    }
    // Outside 2000::/3 (global unicast) is nothing a news site uses:
    // ::/128, ::1, IPv4-compatible ::/96, 64:ff9b:1::/48, discard-only
    // 100::/64, 5f00::/16 (SRv6), fc00::/7, fe80::/10, fec0::/10, ff00::/8...
    if s[0] & 0xe000 != 0x2000 {
        return Some(if v6.is_loopback() {
            "loopback"
        } else if v6.is_multicast() {
            "multicast"
        } else if s[0] & 0xfe00 == 0xfc00 {
            "unique-local"
        } else if s[0] & 0xffc0 == 0xfe80 {
            "link-local"
        } else {
            "not global unicast"
        });
    }
    REFUSED_V6_GLOBAL
        .iter()
        .find(|(net, len, _)| prefix_matches(bits, u128::from(*net), *len, 128))
        .map(|(_, _, name)| *name)
}

/// Whether the first `len` of `width` bits of `addr` and `net` agree.
fn prefix_matches(addr: u128, net: u128, len: u8, width: u32) -> bool {
    let shift = width - u32::from(len);
    if shift >= width {
        return true;
    }
    (addr >> shift) == (net >> shift)
}

/// `Some("127.0.0.1 (loopback)")` when the URL's host is an IP literal that
/// is refused.
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
    refusal(ip).map(|why| format!("{ip} ({why})"))
}

/// Raised by [`GuardedResolver`] when every address of a name is refused;
/// the fetcher finds it in reqwest's error chain to report `blocked_address`.
#[derive(Debug, thiserror::Error)]
#[error("{name} resolves only to refused (private/loopback/special-purpose) addresses")]
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
mod tests;

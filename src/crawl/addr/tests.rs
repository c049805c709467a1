//! The address guard, range by range: one sample address per entry of the
//! IANA special-purpose registries (first, inner and last addresses where
//! an off-by-one in a prefix length would show), and public neighbours that
//! must stay allowed.

use super::*;

fn ip(s: &str) -> IpAddr {
    s.parse().unwrap()
}

fn assert_refused(samples: &[&str]) {
    for s in samples {
        assert!(is_non_public(ip(s)), "{s} should be refused");
    }
}

fn assert_allowed(samples: &[&str]) {
    for s in samples {
        assert!(!is_non_public(ip(s)), "{s} should be allowed");
    }
}

#[test]
fn ipv4_this_network_0_0_0_0_8() {
    assert_refused(&["0.0.0.0", "0.255.255.255"]);
}

#[test]
fn ipv4_private_use_10_8_172_16_12_192_168_16() {
    assert_refused(&["10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1"]);
    assert_allowed(&["172.32.0.1", "11.0.0.1"]);
}

#[test]
fn ipv4_shared_address_space_100_64_10() {
    assert_refused(&["100.64.0.1", "100.127.255.255"]);
    assert_allowed(&["100.128.0.1", "100.63.255.255"]);
}

#[test]
fn ipv4_loopback_127_8() {
    assert_refused(&["127.0.0.1", "127.255.255.254"]);
}

#[test]
fn ipv4_link_local_169_254_16() {
    assert_refused(&["169.254.169.254"]);
}

#[test]
fn ipv4_ietf_protocol_assignments_192_0_0_24() {
    // DS-Lite 192.0.0.0/29, PCP and TURN anycast, NAT64 discovery .170/.171.
    assert_refused(&["192.0.0.1", "192.0.0.9", "192.0.0.170", "192.0.0.255"]);
    assert_allowed(&["192.0.1.1"]);
}

#[test]
fn ipv4_documentation_test_nets() {
    assert_refused(&["192.0.2.1", "198.51.100.7", "203.0.113.200"]);
}

#[test]
fn ipv4_as112_amt_and_6to4_relay() {
    assert_refused(&[
        "192.31.196.1",
        "192.52.193.1",
        "192.88.99.1",
        "192.175.48.1",
    ]);
}

#[test]
fn ipv4_benchmarking_198_18_15() {
    assert_refused(&["198.18.0.1", "198.19.255.255"]);
    assert_allowed(&["198.17.255.255", "198.20.0.1"]);
}

#[test]
fn ipv4_multicast_224_4() {
    assert_refused(&["224.0.0.1", "239.255.255.255"]);
}

#[test]
fn ipv4_reserved_240_4_and_broadcast() {
    assert_refused(&["240.0.0.1", "250.1.2.3", "255.255.255.255"]);
}

#[test]
fn ipv4_public_unicast_is_allowed() {
    assert_allowed(&["93.184.216.34", "8.8.8.8", "1.1.1.1", "223.255.255.255"]);
}

#[test]
fn ipv6_loopback_unspecified_and_ipv4_compatible() {
    assert_refused(&["::1", "::", "::7f00:1", "::808:808"]);
}

#[test]
fn ipv6_ipv4_mapped_is_judged_by_its_ipv4_address() {
    assert_refused(&["::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:198.18.0.1"]);
    assert_allowed(&["::ffff:8.8.8.8"]);
}

#[test]
fn ipv6_nat64_64_ff9b_96_is_judged_by_its_ipv4_address() {
    assert_refused(&["64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b::c0a8:101"]);
    // DNS64 networks reach public hosts this way.
    assert_allowed(&["64:ff9b::808:808"]);
}

#[test]
fn ipv6_local_use_nat64_64_ff9b_1_48() {
    assert_refused(&["64:ff9b:1::808:808"]);
}

#[test]
fn ipv6_discard_only_100_64_and_srv6_5f00_16() {
    assert_refused(&["100::1", "100:0:0:1::1", "5f00::1"]);
}

#[test]
fn ipv6_ietf_protocol_assignments_2001_23() {
    // Teredo 2001::/32, benchmarking 2001:2::/48, ORCHIDv2 2001:20::/28.
    assert_refused(&["2001::1", "2001:2::1", "2001:20::1", "2001:1ff::1"]);
    assert_allowed(&["2001:200::1", "2001:4860:4860::8888"]);
}

#[test]
fn ipv6_documentation_2001_db8_32_and_3fff_20() {
    assert_refused(&["2001:db8::1", "3fff::1", "3fff:fff::1"]);
    assert_allowed(&["3fff:1000::1"]);
}

#[test]
fn ipv6_6to4_2002_16() {
    // 6to4 embeds an IPv4 address (here 127.0.0.1 and 8.8.8.8): both refused.
    assert_refused(&["2002:7f00:1::1", "2002:808:808::1"]);
}

#[test]
fn ipv6_as112_direct_delegation_2620_4f_8000_48() {
    assert_refused(&["2620:4f:8000::1"]);
    assert_allowed(&["2620:4f:8001::1"]);
}

#[test]
fn ipv6_unique_local_link_local_site_local_multicast() {
    assert_refused(&["fd00::1", "fc00::1", "fe80::1", "fec0::1", "ff02::1"]);
}

#[test]
fn ipv6_global_unicast_is_allowed() {
    assert_allowed(&["2606:4700::1111", "2a00:1450:4001::1", "2400:cb00::1"]);
}

#[test]
fn ip_literal_hosts_are_checked_unless_allowed() {
    let u = Url::parse("http://127.0.0.1:8080/x").unwrap();
    assert_eq!(
        url_host_refused(&u, false).as_deref(),
        Some("127.0.0.1 (loopback)")
    );
    assert_eq!(url_host_refused(&u, true), None);
    let u = Url::parse("http://[64:ff9b::7f00:1]/x").unwrap();
    assert!(url_host_refused(&u, false).is_some());
    let u = Url::parse("http://198.18.0.1/x").unwrap();
    assert_eq!(
        url_host_refused(&u, false).as_deref(),
        Some("198.18.0.1 (benchmarking)")
    );
    let u = Url::parse("http://example.com/x").unwrap();
    assert_eq!(url_host_refused(&u, false), None);
}

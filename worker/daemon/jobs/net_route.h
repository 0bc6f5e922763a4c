// Which network interface of this host reaches a given address: the socket-interface hint
// that gloo and NCCL need when a host name resolves to loopback (GLOO_SOCKET_IFNAME,
// NCCL_SOCKET_IFNAME).
#pragma once

#include <string>

namespace tessera::daemon {

/// Name of the interface (e.g. "eth0", "lo") that this host's routing table uses to reach
/// `host` (an IPv4/IPv6 address or a name), found by connecting a UDP socket (no packet is sent)
/// and matching its local address against getifaddrs(); empty when it cannot be told.
std::string interfaceToward(const std::string& host);

} // namespace tessera::daemon

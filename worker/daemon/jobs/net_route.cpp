// interfaceToward(): UDP connect() + getsockname() + getifaddrs() (see net_route.h).
#include "worker/daemon/jobs/net_route.h"

#include <cstring>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace tessera::daemon {

namespace {

bool sameAddress(const sockaddr* a, const sockaddr_storage& b) {
    if (!a || a->sa_family != b.ss_family) {
        return false;
    }
    if (a->sa_family == AF_INET) {
        return std::memcmp(&reinterpret_cast<const sockaddr_in*>(a)->sin_addr,
                           &reinterpret_cast<const sockaddr_in*>(&b)->sin_addr,
                           sizeof(in_addr)) == 0;
    }
    if (a->sa_family == AF_INET6) {
        return std::memcmp(&reinterpret_cast<const sockaddr_in6*>(a)->sin6_addr,
                           &reinterpret_cast<const sockaddr_in6*>(&b)->sin6_addr,
                           sizeof(in6_addr)) == 0;
    }
    return false;
}

} // namespace

std::string interfaceToward(const std::string& host) {
    addrinfo hints{};
    hints.ai_socktype = SOCK_DGRAM;
    addrinfo* found = nullptr;
    if (host.empty() || ::getaddrinfo(host.c_str(), "9", &hints, &found) != 0 || !found) {
        return {};
    }
    sockaddr_storage local{};
    bool ok = false;
    const int fd = ::socket(found->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd >= 0) {
        socklen_t len = sizeof local;
        ok = ::connect(fd, found->ai_addr, found->ai_addrlen) == 0 &&
             ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len) == 0;
        ::close(fd);
    }
    ::freeaddrinfo(found);
    ifaddrs* ifs = nullptr;
    if (!ok || ::getifaddrs(&ifs) != 0) {
        return {};
    }
    std::string name;
    for (ifaddrs* i = ifs; i && name.empty(); i = i->ifa_next) {
        if (sameAddress(i->ifa_addr, local)) {
            name = i->ifa_name;
        }
    }
    ::freeifaddrs(ifs);
    return name;
}

} // namespace tessera::daemon

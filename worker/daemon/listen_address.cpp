// --listen parsing and the port-in-use probe (see listen_address.h).
#include "worker/daemon/listen_address.h"

#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tessera::daemon {

std::string ListenAddress::bareHost() const {
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
        return host.substr(1, host.size() - 2);
    }
    return host;
}

Result<ListenAddress> parseListenAddress(std::string_view text) {
    const std::string shown(text);
    auto bad = [&](const std::string& why) {
        return fail(ErrorCode::InvalidArgument,
                    "--listen '" + shown + "' " + why +
                        ": give HOST:PORT, e.g. 127.0.0.1:7000, [::1]:7000, or port 0 to pick a "
                        "free one");
    };
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos) {
        return bad("has no port");
    }
    const std::string_view host = text.substr(0, colon);
    const std::string_view port = text.substr(colon + 1);
    if (host.empty()) {
        return bad("has no host");
    }
    for (const char c : host) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u >= 0x7F) {
            return bad("has a space or control character in the host");
        }
    }
    if (host.front() == '[') {
        if (host.size() < 3 || host.back() != ']' ||
            host.find_first_of("[]", 1) != host.size() - 1) {
            return bad("has a malformed [IPv6] host");
        }
    } else if (host.find_first_of(":[]") != std::string_view::npos) {
        return bad("has an IPv6 host without brackets");
    }
    if (port.empty()) {
        return bad("has no port");
    }
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos) {
        return bad("has a port that is not a number from 0 to 65535");
    }
    const int value = std::stoi(std::string(port));
    if (value > 65535) {
        return bad("has a port that is not a number from 0 to 65535");
    }
    return ListenAddress{std::string(host), value};
}

Result<void> checkPortFree(const ListenAddress& addr) {
    if (addr.port == 0) {
        return {};
    }
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    const std::string host = addr.bareHost();
    const std::string port = std::to_string(addr.port);
    if (getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0) {
        return {}; // gRPC resolves it again and reports what is wrong
    }
    bool inUse = false;
    for (const addrinfo* ai = found; ai != nullptr && !inUse; ai = ai->ai_next) {
        const int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            continue;
        }
        const int one = 1;
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (ai->ai_family == AF_INET6) {
            ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
        }
        if (::bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 && errno == EADDRINUSE) {
            inUse = true;
        }
        ::close(fd);
    }
    freeaddrinfo(found);
    if (inUse) {
        return fail(ErrorCode::InvalidArgument,
                    addr.toString() + " is already in use: pick another port or 0");
    }
    return {};
}

} // namespace tessera::daemon

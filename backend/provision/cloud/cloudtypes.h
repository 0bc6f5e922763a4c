// What a GPU cloud's API talks about, independent of the cloud: instance types with their
// prices and capacity, instances and their states, a launch request. Plain value types.
#pragma once

#include <expected>

#include <QList>
#include <QMetaType>
#include <QPair>
#include <QString>
#include <QStringList>

namespace tessera {

/// One kind of machine a cloud rents (Lambda: an "instance type").
struct CloudInstanceType {
    QString name;        ///< the API's id, e.g. "gpu_1x_a10"
    QString description; ///< e.g. "1x A10 (24 GB PCIe)"
    QString gpuName;     ///< the GPU as the cloud names it, e.g. "A10 (24 GB PCIe)"; "" = none
    int gpus = 0;        ///< GPUs per instance
    double gpuMemoryBytes = 0; ///< memory of one GPU, bytes (the cloud's "GB" as 10^9); 0 = unknown
    int vcpus = 0;             ///< virtual CPUs
    double memoryGiB = 0;      ///< RAM, GiB
    double storageGiB = 0;     ///< local disk, GiB
    double pricePerHour = 0;   ///< US dollars per instance-hour, as the cloud bills it
    QStringList regions;       ///< regions with capacity for it now (empty = none anywhere)
};

/// An instance's state as the cloud reports it.
enum class CloudStatus {
    Booting,     ///< launched, not yet reachable
    Active,      ///< running and reachable at its address
    Unhealthy,   ///< running but failed the cloud's health checks
    Terminating, ///< being torn down (still billed until terminated)
    Terminated,  ///< gone; no longer billed
    Preempted,   ///< reclaimed by the cloud (spot-like capacity); gone, no longer billed
    Unknown,     ///< a state this version of Tessera does not know (kept as the cloud's text)
};

/// "booting", "active", … as the clouds spell them.
QString cloudStatusName(CloudStatus status);

/// One instance.
struct CloudInstance {
    QString id;   ///< the cloud's id
    QString name; ///< the name given at launch (may be empty)
    CloudStatus status = CloudStatus::Unknown;
    QString statusText;                  ///< the cloud's own word for the status
    QString ip;                          ///< public IPv4 address; empty while booting
    QString hostname;                    ///< the instance's host name, if reported
    QString region;                      ///< e.g. "us-east-1"
    QString typeName;                    ///< its instance type's name
    double pricePerHour = 0;             ///< dollars per hour, if the cloud reports it
    QList<QPair<QString, QString>> tags; ///< key/value tags set at launch
    /// The value of tag `key`, or "" when it has none.
    QString tag(const QString& key) const;
};

/// One inbound rule of a cloud firewall: `protocol` ("tcp", "udp", "icmp", "all") from
/// `sourceNetwork` (IPv4 CIDR, "1.2.3.4/32") to ports portMin..portMax (0..0 for icmp).
struct CloudFirewallRule {
    QString protocol;
    int portMin = 0;
    int portMax = 0;
    QString sourceNetwork;
    QString description; ///< ≤ 128 characters (Lambda)
    bool operator==(const CloudFirewallRule&) const = default;
};

/// A named set of inbound rules in one region that instances launched with it get (Lambda's
/// firewall ruleset).
struct CloudRuleset {
    QString id;
    QString name;
    QString region;
    QList<CloudFirewallRule> rules;
    QStringList instanceIds; ///< instances it is associated with
};

/// What to launch: one instance.
struct CloudLaunch {
    QString typeName;   ///< instance type
    QString region;     ///< region to launch in
    QString name;       ///< instance name shown in the cloud's console (≤ 64 characters)
    QString sshKeyName; ///< the registered SSH key that may log in
    QString userData;   ///< cloud-init user data ("#cloud-config ..."), may be empty
    QList<QPair<QString, QString>> tags; ///< key/value tags (Lambda: key ^[a-z][a-z0-9-:]+$)
    QStringList firewallRulesets;        ///< ids of rulesets (same region) it gets, may be empty
};

/// What kind of failure a cloud's API reported, for the rent to decide what to do next.
enum class CloudErrorKind {
    Other,       ///< anything else: shown to the person as it is
    Auth,        ///< the API key was refused or the account cannot rent (fix the key/account)
    Capacity,    ///< no capacity for that type in that region now (another region may have it)
    Quota,       ///< the account's instance quota is reached
    RateLimited, ///< HTTP 429 that outlasted the retries
    Transient,   ///< HTTP 5xx or a network failure that outlasted the retries
    NotFound,    ///< the instance, key or type does not exist (an instance that vanished)
    BadReply,    ///< the reply is not what the API documents
};

/// A failed API call: its kind and a message that names the cloud, the call and what to do.
struct CloudError {
    CloudErrorKind kind = CloudErrorKind::Other;
    QString message;
};

/// Result of a cloud API call.
template <typename T> using CloudResult = std::expected<T, CloudError>;

/// A CloudResult's failure, for `return cloudFail(...)`.
inline std::unexpected<CloudError> cloudFail(CloudErrorKind kind, const QString& message) {
    return std::unexpected<CloudError>(CloudError{kind, message});
}

} // namespace tessera

Q_DECLARE_METATYPE(tessera::CloudInstance)
Q_DECLARE_METATYPE(tessera::CloudInstanceType)

// Which lease of which Tessera installation a cloud instance belongs to: its tags say so, and
// its name says so too, for a listing that leaves the tags out (they are optional in Lambda's
// Instance object, OpenAPI v1.10.0).
#pragma once

#include "backend/provision/cloud/cloudtypes.h"

#include <QString>

namespace tessera {

/// Tag keys on every instance Tessera launches.
inline constexpr const char* kLeaseTag = "tessera-lease";
inline constexpr const char* kOwnerTag = "tessera-owner";

/// The name an instance of lease `leaseId` gets from installation `owner` (16 hex digits):
/// "tessera-<owner>-<lease>", 51 characters for today's lease ids ("lease-YYYYMMDD-hhmmss-xxxx");
/// Lambda allows 64. A longer one is cut to 64 and then identifies nothing (tags still do).
QString cloudInstanceName(const QString& owner, const QString& leaseId);

/// The installation and lease an instance belongs to.
struct InstanceOwner {
    QString owner;         ///< installation id; "" when neither tags nor name say
    QString lease;         ///< lease id; "" when neither tags nor name say
    bool fromName = false; ///< read from the name because the tags were missing
};

/// From the instance's tags, or, when it has no lease tag, from a name cloudInstanceName()
/// made. Names of other forms (another program's, Tessera's before names said this) give empty
/// strings.
InstanceOwner instanceOwner(const CloudInstance& instance);

} // namespace tessera

// Lambda Cloud's REST API (v1) on the wire: its replies parsed into Tessera's cloud types, its
// error bodies turned into reasons a person can act on, and the launch request's body. Pure
// functions of bytes (fuzzed: tests/fuzz/fuzz_lambda_api.cpp).
//
// Source: Lambda's public API reference (cloud.lambda.ai/api/v1/docs, its OpenAPI document):
// every reply is {"data": …}; an error is {"error": {"code", "message", "suggestion"}} with the
// codes global/invalid-api-key, global/account-inactive, global/invalid-address,
// global/invalid-parameters, global/object-does-not-exist, global/quota-exceeded,
// instance-operations/launch/insufficient-capacity, …; HTTP 429 when rate limited.
#pragma once

#include "backend/provision/cloud/cloudtypes.h"

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

namespace tessera {

/// An SSH public key registered with the account.
struct CloudSshKey {
    QString id;
    QString name;
    QString publicKey; ///< "ssh-ed25519 AAAA… comment"
};

/// GET /instance-types: {"data": {"<name>": {"instance_type": {name, description,
/// gpu_description, price_cents_per_hour, specs: {vcpus, memory_gib, storage_gib, gpus}},
/// "regions_with_capacity_available": [{name, description}]}}}. Sorted by price, cheapest first.
/// GPU memory comes from the description ("A10 (24 GB PCIe)": 24 × 10^9 bytes). Entries with a
/// price or count out of range (negative, ≥ $100,000/h, > 1,024 GPUs) are left out.
/// Errors: CloudErrorKind::BadReply when the body is not such an object.
CloudResult<QList<CloudInstanceType>> parseLambdaInstanceTypes(const QByteArray& body);

/// One instance object: id (required), name, ip, status, hostname, region.name,
/// instance_type.{name, price_cents_per_hour}, tags [{key, value}]. Errors: BadReply without an id.
CloudResult<CloudInstance> lambdaInstanceFromJson(const QJsonObject& object);
/// GET /instances: {"data": [instance, …]}. Errors: BadReply.
CloudResult<QList<CloudInstance>> parseLambdaInstances(const QByteArray& body);
/// GET /instances/{id}: {"data": instance}. Errors: BadReply.
CloudResult<CloudInstance> parseLambdaInstance(const QByteArray& body);
/// POST /instance-operations/launch: {"data": {"instance_ids": [id, …]}} (at least one).
/// Errors: BadReply.
CloudResult<QStringList> parseLambdaLaunch(const QByteArray& body);
/// GET /ssh-keys: {"data": [{id, name, public_key}]}; POST /ssh-keys: {"data": {…}} (one key,
/// returned as a list of one). Errors: BadReply.
CloudResult<QList<CloudSshKey>> parseLambdaSshKeys(const QByteArray& body);

/// The "data" member of a reply `body` to `call` ("listing instances"). Errors: BadReply when the
/// body is a web page, not a JSON object, or has no "data" (the message says what to check).
CloudResult<QJsonValue> lambdaData(const QByteArray& body, const QString& call);

/// The failure of a call that got HTTP `status` with `body` (the API's error object, or anything
/// a proxy sends). `what` is the call in words ("launching gpu_1x_a10 in us-east-1"). The message
/// names Lambda Cloud, the call, the API's code and message, and what to do; never the key.
CloudError lambdaFailure(int status, const QByteArray& body, const QString& what);

/// The body of POST /instance-operations/launch for `launch` (quantity 1, no file systems).
QByteArray lambdaLaunchBody(const CloudLaunch& launch);

/// `text` fit for a log line or a table cell: control characters dropped, at most `maxChars`.
QString cloudText(const QString& text, int maxChars = 256);

} // namespace tessera

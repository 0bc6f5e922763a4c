// Lambda Cloud's wire formats as Tessera reads and writes them (lambdaparse.h), the API key file
// (0600 or refused), the https-only rule for the key, and the cloud-init host key user data.
#include "backend/provision/cloud/cloudhttp.h"
#include "backend/provision/cloud/cloudkeys.h"
#include "backend/provision/cloud/lambdafirewall.h"
#include "backend/provision/cloud/lambdaparse.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

namespace {

/// JSON written with ' for " (readable in C++ string literals); no ' in the texts.
QByteArray json(const char* text) {
    return QByteArray(text).replace('\'', '"');
}

QByteArray typesBody() {
    return json(
        "{'data': {"
        "      'gpu_8x_h100_sxm5': {'instance_type': {'name': 'gpu_8x_h100_sxm5',"
        "        'description': '8x H100 (80 GB SXM5)', 'gpu_description': 'H100 (80 GB SXM5)',"
        "        'price_cents_per_hour': 2392,"
        "        'specs': {'vcpus': 208, 'memory_gib': 1800, 'storage_gib': 24780, 'gpus': 8}},"
        "        'regions_with_capacity_available': []},"
        "      'gpu_1x_a10': {'instance_type': {'name': 'gpu_1x_a10', 'description': '1x A10 (24 "
        "GB PCIe)',"
        "        'gpu_description': 'A10 (24 GB PCIe)', 'price_cents_per_hour': 75,"
        "        'specs': {'vcpus': 30, 'memory_gib': 200, 'storage_gib': 1400, 'gpus': 1}},"
        "        'regions_with_capacity_available': [{'name': 'us-east-1', 'description': "
        "'Virginia'},"
        "                                            {'name': 'us-west-1', 'description': "
        "'California'}]},"
        "      'gpu_bogus': {'instance_type': {'name': 'gpu_bogus', 'price_cents_per_hour': -5,"
        "        'specs': {'gpus': 1}}, 'regions_with_capacity_available': []}"
        "    }}");
}

} // namespace

class TstLambdaParse : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void instanceTypesCheapestFirst() {
        const auto types = parseLambdaInstanceTypes(typesBody());
        QVERIFY2(types, types ? "" : qPrintable(types.error().message));
        QCOMPARE(types->size(), 2); // the negative price is left out
        const CloudInstanceType& a10 = types->at(0);
        QCOMPARE(a10.name, QStringLiteral("gpu_1x_a10"));
        QCOMPARE(a10.pricePerHour, 0.75);
        QCOMPARE(a10.gpus, 1);
        QCOMPARE(a10.gpuMemoryBytes, 24e9);
        QCOMPARE(a10.vcpus, 30);
        QCOMPARE(a10.regions, (QStringList{"us-east-1", "us-west-1"}));
        QCOMPARE(types->at(1).gpus, 8);
        QCOMPARE(types->at(1).gpuMemoryBytes, 80e9);
        QVERIFY(types->at(1).regions.isEmpty());
    }

    void badReplies_data() {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("says");
        QTest::newRow("empty") << QByteArray() << "update Tessera";
        // A site's page where the API should answer: the URL is wrong, not Tessera.
        QTest::newRow("html") << QByteArray("  <!DOCTYPE html><html>Lambda</html>")
                              << "check the API URL (TESSERA_LAMBDA_API_URL";
        QTest::newRow("array") << QByteArray("[1,2]") << "update Tessera";
        QTest::newRow("no data") << QByteArray("{\"error\": {}}") << "update Tessera";
        QTest::newRow("data is a list") << QByteArray("{\"data\": []}") << "update Tessera";
    }
    void badReplies() {
        QFETCH(QByteArray, body);
        QFETCH(QString, says);
        const auto types = parseLambdaInstanceTypes(body);
        QVERIFY(!types);
        QCOMPARE(types.error().kind, CloudErrorKind::BadReply);
        QVERIFY(types.error().message.contains(QLatin1String("Lambda Cloud")));
        QVERIFY2(types.error().message.contains(says), qPrintable(types.error().message));
    }

    void instancesWithTagsAndStatus() {
        const QByteArray body = json(
            "{'data': [{'id': 'i-1', 'name': 'tessera lambda-3f2a',"
            "            'ip': '198.18.3.11', 'status': 'active', 'region': {'name': 'us-east-1'},"
            "            'instance_type': {'name': 'gpu_1x_a10', 'price_cents_per_hour': 75},"
            "            'tags': [{'key': 'tessera-lease', 'value': 'lease-1'}]},"
            "          {'id': 'i-2', 'status': 'booting\\u001b[2J'},"
            "          {'id': 'i-3', 'status': 'hibernating'}]}");
        const auto list = parseLambdaInstances(body);
        QVERIFY2(list, list ? "" : qPrintable(list.error().message));
        QCOMPARE(list->size(), 3);
        QCOMPARE(list->at(0).status, CloudStatus::Active);
        QCOMPARE(list->at(0).ip, QStringLiteral("198.18.3.11"));
        QCOMPARE(list->at(0).region, QStringLiteral("us-east-1"));
        QCOMPARE(list->at(0).pricePerHour, 0.75);
        QCOMPARE(list->at(0).tag(QStringLiteral("tessera-lease")), QStringLiteral("lease-1"));
        QCOMPARE(list->at(1).statusText, QStringLiteral("booting[2J")); // no escape reaches a log
        QCOMPARE(list->at(2).status, CloudStatus::Unknown);
        QVERIFY(!parseLambdaInstances(json("{'data': [{'name': 'no id'}]}")));
    }

    void launchReply() {
        const auto ids = parseLambdaLaunch(json("{'data': {'instance_ids': ['i-9']}}"));
        QVERIFY(ids);
        QCOMPARE(*ids, QStringList{"i-9"});
        QVERIFY(!parseLambdaLaunch(json("{'data': {'instance_ids': []}}")));
    }

    void launchBody() {
        CloudLaunch l;
        l.typeName = QStringLiteral("gpu_1x_a10");
        l.region = QStringLiteral("us-east-1");
        l.name = QString(100, QLatin1Char('n'));
        l.sshKeyName = QStringLiteral("tessera-k");
        l.userData = QStringLiteral("#cloud-config\n");
        l.tags = {{QStringLiteral("tessera-lease"), QStringLiteral("lease-1")}};
        const QJsonObject o = QJsonDocument::fromJson(lambdaLaunchBody(l)).object();
        QCOMPARE(o.value(QStringLiteral("instance_type_name")).toString(), l.typeName);
        QCOMPARE(o.value(QStringLiteral("region_name")).toString(), l.region);
        QCOMPARE(o.value(QStringLiteral("ssh_key_names")).toArray(), QJsonArray{l.sshKeyName});
        QCOMPARE(o.value(QStringLiteral("name")).toString().size(), 64); // the API's limit
        QCOMPARE(o.value(QStringLiteral("user_data")).toString(), l.userData);
        QCOMPARE(o.value(QStringLiteral("tags")).toArray().first().toObject().value("key"),
                 QJsonValue(QStringLiteral("tessera-lease")));
        QVERIFY(!o.contains(QStringLiteral("firewall_rulesets"))); // none asked: none sent
        l.firewallRulesets = {QStringLiteral("c4d291f47f9d436fa39f58493ce3b50d")};
        const QJsonObject with = QJsonDocument::fromJson(lambdaLaunchBody(l)).object();
        QCOMPARE(with.value(QStringLiteral("firewall_rulesets")).toArray(),
                 (QJsonArray{QJsonObject{{"id", "c4d291f47f9d436fa39f58493ce3b50d"}}}));
    }

    // FirewallRuleset and FirewallRule as OpenAPI v1.10.0 has them; port_range is left out for
    // icmp both ways.
    void rulesetsBothWays() {
        const auto list = parseLambdaRulesets(json(
            "{'data': [{'id': 'r1', 'name': 'tessera-0123456789abcdef-us-east-1',"
            " 'region': {'name': 'us-east-1', 'description': 'Virginia'},"
            " 'rules': [{'protocol': 'tcp', 'port_range': [1, 65535],"
            "            'source_network': '198.51.100.2/32', 'description': 'peer'},"
            "           {'protocol': 'icmp', 'source_network': '0.0.0.0/0', 'description': ''}],"
            " 'created': '2026-12-07T10:00:00Z', 'instance_ids': ['i-1', 'i-2']}]}"));
        QVERIFY2(list, list ? "" : qPrintable(list.error().message));
        QCOMPARE(list->size(), 1);
        const CloudRuleset r = list->first();
        QCOMPARE(r.region, QStringLiteral("us-east-1"));
        QCOMPARE(r.instanceIds, (QStringList{"i-1", "i-2"}));
        QCOMPARE(r.rules.size(), 2);
        QCOMPARE(r.rules.at(0), (CloudFirewallRule{"tcp", 1, 65535, "198.51.100.2/32", "peer"}));
        QCOMPARE(r.rules.at(1).protocol, QStringLiteral("icmp"));
        const QJsonArray out = lambdaRulesJson(r.rules);
        QCOMPARE(out.at(0).toObject().value("port_range").toArray(), (QJsonArray{1, 65535}));
        QVERIFY(!out.at(1).toObject().contains(QStringLiteral("port_range")));
        const QJsonObject create =
            QJsonDocument::fromJson(
                lambdaRulesetCreateBody(QString(80, QLatin1Char('n')), "us-east-1", r.rules))
                .object();
        QCOMPARE(create.value("name").toString().size(), 64); // the API's limit
        QCOMPARE(create.value("region").toString(), QStringLiteral("us-east-1"));
        QCOMPARE(QJsonDocument::fromJson(lambdaRulesetRulesBody({})).object(),
                 (QJsonObject{{"rules", QJsonArray{}}}));
    }

    void badRulesets_data() {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("no id") << json("{'data': [{'name': 'x', 'rules': []}]}");
        QTest::newRow("tcp without ports")
            << json("{'data': [{'id': 'r', 'rules': [{'protocol': 'tcp', 'source_network': "
                    "'1.2.3.4'}]}]}");
        QTest::newRow("ports reversed")
            << json("{'data': [{'id': 'r', 'rules': [{'protocol': 'tcp', 'port_range': [9, 2], "
                    "'source_network': '1.2.3.4'}]}]}");
        QTest::newRow("port 70000")
            << json("{'data': [{'id': 'r', 'rules': [{'protocol': 'udp', 'port_range': [1, "
                    "70000], 'source_network': '1.2.3.4'}]}]}");
        QTest::newRow("rule not an object") << json("{'data': [{'id': 'r', 'rules': [7]}]}");
        QTest::newRow("web page") << QByteArray("<html>busy</html>");
    }
    void badRulesets() {
        QFETCH(QByteArray, body);
        const auto r = parseLambdaRulesets(body);
        QVERIFY(!r);
        QCOMPARE(r.error().kind, CloudErrorKind::BadReply);
    }

    void errorsSayWhatToDo_data() {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("says");
        QTest::newRow("key") << 401
                             << QByteArray(json("{'error': {'code': 'global/invalid-api-key',"
                                                "                                   'message': "
                                                "'API key was invalid, expired, or deleted.'}}"))
                             << int(CloudErrorKind::Auth) << "create an API key";
        QTest::newRow("capacity")
            << 400
            << QByteArray(
                   json("{'error': {'code': 'instance-operations/launch/insufficient-capacity',"
                        "                  'message': 'Not enough capacity to fulfill launch "
                        "request.'}}"))
            << int(CloudErrorKind::Capacity) << "another region";
        QTest::newRow("quota")
            << 400
            << QByteArray(
                   json("{'error': {'code': 'global/quota-exceeded',"
                        "                                     'message': 'Quota exceeded.'}}"))
            << int(CloudErrorKind::Quota) << "raise the account's quota";
        QTest::newRow("inactive") << 403
                                  << QByteArray(json("{'error': {'code': 'global/account-inactive',"
                                                     "                                        "
                                                     "'message': 'Your account is inactive.'}}"))
                                  << int(CloudErrorKind::Auth) << "billing";
        QTest::newRow("429") << 429 << QByteArray() << int(CloudErrorKind::RateLimited)
                             << "rate limited";
        QTest::newRow("proxy 502") << 502 << QByteArray("<html><b>Bad Gateway</b></html>")
                                   << int(CloudErrorKind::Transient) << "HTTP 502";
        QTest::newRow("gone") << 404
                              << QByteArray(
                                     json("{'error': {'code': 'global/object-does-not-exist',"
                                          "                                    'message': "
                                          "'Specified instance does not exist.'}}"))
                              << int(CloudErrorKind::NotFound) << "does not exist";
    }
    void errorsSayWhatToDo() {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(int, kind);
        QFETCH(QString, says);
        const CloudError e = lambdaFailure(status, body, QStringLiteral("launching gpu_1x_a10"));
        QCOMPARE(int(e.kind), kind);
        QVERIFY2(e.message.contains(says), qPrintable(e.message));
        QVERIFY2(e.message.contains(QLatin1String("launching gpu_1x_a10")), qPrintable(e.message));
    }

    void keyGoesOnlyOverHttps_data() {
        QTest::addColumn<QString>("url");
        QTest::addColumn<bool>("ok");
        QTest::newRow("lambda") << "https://cloud.lambda.ai/api/v1" << true;
        QTest::newRow("loopback double") << "http://127.0.0.1:8123/api/v1" << true;
        QTest::newRow("localhost double") << "http://localhost:8123/api/v1" << true;
        QTest::newRow("plain http elsewhere") << "http://cloud.lambda.ai/api/v1" << false;
        QTest::newRow("not a url") << "::nope" << false;
    }
    void keyGoesOnlyOverHttps() {
        QFETCH(QString, url);
        QFETCH(bool, ok);
        QCOMPARE(CloudHttp::checkBaseUrl(url).has_value(), ok);
    }

    void keyNeverEchoedBack() {
        CloudHttp http(QUrl(QStringLiteral("https://cloud.lambda.ai/api/v1")));
        http.setApiKey(QStringLiteral("SECRETKEY123abc"));
        QCOMPARE(http.redacted(QStringLiteral("you sent: Authorization: Bearer SECRETKEY123abc")),
                 QStringLiteral("you sent: Authorization: Bearer <API key>"));
    }

    void apiKeyFileMustBePrivate() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("lambda-api-key"));
        QCOMPARE(readApiKeyFile(path).error().code, ErrorCode::NotFound);
        QVERIFY(writeApiKeyFile(path, QStringLiteral("  secret_abc  \n")));
        QCOMPARE(QFile::permissions(path) & 0x0077, QFile::Permissions());
        QCOMPARE(*readApiKeyFile(path), QStringLiteral("secret_abc"));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther);
        const auto refused = readApiKeyFile(path);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::PermissionDenied);
        QVERIFY(
            QString::fromStdString(refused.error().message).contains(QLatin1String("chmod 600")));
        QVERIFY(!writeApiKeyFile(path, QStringLiteral("two\nlines")));
        // 4 KiB is the limit in bytes, the same for writing and reading.
        QVERIFY(writeApiKeyFile(path, QString(4096, QLatin1Char('k'))));
        QCOMPARE(readApiKeyFile(path)->size(), 4096);
        QVERIFY(!writeApiKeyFile(path, QString(4097, QLatin1Char('k'))));
        QVERIFY(!writeApiKeyFile(path, QString(2049, QChar(0x00e9)))); // 4098 bytes in UTF-8
    }

    void hostKeyUserDataIsCloudConfig() {
        const HostKey k{QStringLiteral("-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH "
                                       "PRIVATE KEY-----\n"),
                        QStringLiteral("ssh-ed25519 AAAAkey tessera-lease-1")};
        const QString u = hostKeyUserData(k);
        QVERIFY(u.startsWith(QLatin1String("#cloud-config\n")));
        QVERIFY(u.contains(QLatin1String("  ed25519_private: |\n    -----BEGIN OPENSSH PRIVATE KEY"
                                         "-----\n    abc\n")));
        QVERIFY(
            u.contains(QLatin1String("  ed25519_public: ssh-ed25519 AAAAkey tessera-lease-1\n")));
    }
};

QTEST_GUILESS_MAIN(TstLambdaParse)
#include "tst_lambdaparse.moc"

// Cluster CA crypto with OpenSSL 3: EC P-256 keys, X.509 v3 certificates, PEM.
#include "backend/tls/certificate_authority.h"

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>

#include <cctype>

#include <memory>

namespace tessera::tls {

namespace {

template <auto Free> struct Deleter {
    template <typename T> void operator()(T* p) const { Free(p); }
};
using Bio = std::unique_ptr<BIO, Deleter<BIO_free_all>>;
using Key = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY_free>>;
using Cert = std::unique_ptr<X509, Deleter<X509_free>>;
using Store = std::unique_ptr<X509_STORE, Deleter<X509_STORE_free>>;
using StoreCtx = std::unique_ptr<X509_STORE_CTX, Deleter<X509_STORE_CTX_free>>;

/// OpenSSL's most recent error reason, the queue cleared.
std::string sslReason() {
    const unsigned long e = ERR_get_error();
    ERR_clear_error();
    if (e == 0) {
        return "no reason given";
    }
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    return buf;
}

Failure sslFailure(const std::string& what) {
    return fail(ErrorCode::Internal, what + ": " + sslReason());
}

Key newKey() {
    return Key(EVP_EC_gen("P-256"));
}

std::string pem(int (*write)(BIO*, const void*), const void* object) {
    Bio bio(BIO_new(BIO_s_mem()));
    if (!bio || write(bio.get(), object) != 1) {
        return {};
    }
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<size_t>(n));
}

std::string keyPem(EVP_PKEY* key) {
    Bio bio(BIO_new(BIO_s_mem()));
    if (!bio ||
        PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1) {
        return {};
    }
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<size_t>(n));
}

std::string certPem(X509* cert) {
    return pem([](BIO* b, const void* c) { return PEM_write_bio_X509(b, (X509*)c); }, cert);
}

Key loadKey(const std::string& text) {
    Bio bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
    return Key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr);
}

Cert loadCert(const std::string& text) {
    Bio bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
    return Cert(bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr);
}

/// Adds extension `nid` = `value` (openssl x509v3_config syntax) with `issuer` as issuer.
bool addExtension(X509* cert, X509* issuer, int nid, const std::string& value) {
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
    if (ext == nullptr) {
        return false;
    }
    const bool ok = X509_add_ext(cert, ext, -1) == 1;
    X509_EXTENSION_free(ext);
    return ok;
}

/// Adds `field` = `value` (UTF-8) to `name`.
bool addNameEntry(X509_NAME* name, const char* field, const std::string& value) {
    return X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8,
                                      reinterpret_cast<const unsigned char*>(value.c_str()), -1, -1,
                                      0) == 1;
}

/// The text of `name`'s first entry of `nid`; "" when it has none.
std::string nameEntry(X509_NAME* name, int nid) {
    const int i = X509_NAME_get_index_by_NID(name, nid, -1);
    if (i < 0) {
        return {};
    }
    const ASN1_STRING* data = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, i));
    unsigned char* utf8 = nullptr;
    const int n = ASN1_STRING_to_UTF8(&utf8, data);
    if (n < 0) {
        return {};
    }
    std::string text(reinterpret_cast<const char*>(utf8), static_cast<size_t>(n));
    OPENSSL_free(utf8);
    return text;
}

/// A certificate with a random positive 128-bit serial, `commonName` as CN (and `unit` as OU when
/// not empty), the validity and `key`.
Cert newCertificate(const std::string& commonName, const Validity& validity, EVP_PKEY* key,
                    const std::string& unit = {}) {
    Cert cert(X509_new());
    unsigned char serial[16];
    if (!cert || RAND_bytes(serial, sizeof serial) != 1) {
        return nullptr;
    }
    serial[0] &= 0x7f; // positive, as RFC 5280 §4.1.2.2 asks
    BIGNUM* bn = BN_bin2bn(serial, sizeof serial, nullptr);
    const bool ok = bn != nullptr && X509_set_version(cert.get(), X509_VERSION_3) == 1 &&
                    BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert.get())) != nullptr &&
                    ASN1_TIME_set(X509_getm_notBefore(cert.get()), validity.notBefore) &&
                    ASN1_TIME_set(X509_getm_notAfter(cert.get()), validity.notAfter) &&
                    (unit.empty() || addNameEntry(X509_get_subject_name(cert.get()), "OU", unit)) &&
                    addNameEntry(X509_get_subject_name(cert.get()), "CN", commonName) &&
                    X509_set_pubkey(cert.get(), key) == 1;
    BN_free(bn);
    return ok ? std::move(cert) : nullptr;
}

bool isIpLiteral(const std::string& text) {
    unsigned char buf[16];
    return inet_pton(AF_INET, text.c_str(), buf) == 1 ||
           inet_pton(AF_INET6, text.c_str(), buf) == 1;
}

std::string nameLine(X509_NAME* name) {
    Bio bio(BIO_new(BIO_s_mem()));
    if (!bio || X509_NAME_print_ex(bio.get(), name, 0, XN_FLAG_RFC2253) < 0) {
        return {};
    }
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<size_t>(n));
}

std::time_t toTime(const ASN1_TIME* t) {
    struct tm tm {};
    if (ASN1_TIME_to_tm(t, &tm) != 1) {
        return 0;
    }
    return timegm(&tm);
}

std::string utcText(std::time_t t) {
    char buf[32];
    struct tm tm {};
    gmtime_r(&t, &tm);
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
    return buf;
}

} // namespace

Validity Validity::days(int days) {
    const std::time_t now = std::time(nullptr);
    return {now - 300, now + std::time_t(days) * 86400};
}

Result<KeyAndCert> createCa(const std::string& commonName, const Validity& validity) {
    Key key = newKey();
    if (!key) {
        return sslFailure("cannot make the CA's P-256 key");
    }
    Cert cert = newCertificate(commonName, validity, key.get());
    if (!cert || X509_set_issuer_name(cert.get(), X509_get_subject_name(cert.get())) != 1 ||
        !addExtension(cert.get(), cert.get(), NID_basic_constraints,
                      "critical,CA:TRUE,pathlen:0") ||
        !addExtension(cert.get(), cert.get(), NID_key_usage, "critical,keyCertSign,cRLSign") ||
        !addExtension(cert.get(), cert.get(), NID_subject_key_identifier, "hash") ||
        X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) {
        return sslFailure("cannot make the CA certificate '" + commonName + "'");
    }
    return KeyAndCert{keyPem(key.get()), certPem(cert.get())};
}

Result<KeyAndCert> issue(const KeyAndCert& ca, const Subject& subject, const Validity& validity) {
    Key caKey = loadKey(ca.keyPem);
    Cert caCert = loadCert(ca.certPem);
    if (!caKey || !caCert || X509_check_private_key(caCert.get(), caKey.get()) != 1) {
        ERR_clear_error();
        return fail(ErrorCode::InvalidArgument,
                    "the CA's key and certificate do not load or do not belong together");
    }
    std::string san;
    for (const std::string& dns : subject.dnsNames) {
        san += (san.empty() ? "" : ",") + std::string("DNS:") + dns;
    }
    for (const std::string& ip : subject.ipAddresses) {
        if (!isIpLiteral(ip)) {
            return fail(ErrorCode::InvalidArgument,
                        "'" + ip + "' is not an IPv4 or IPv6 address for a certificate");
        }
        san += (san.empty() ? "" : ",") + std::string("IP:") + ip;
    }
    Key key = newKey();
    if (!key) {
        return sslFailure("cannot make a P-256 key for '" + subject.commonName + "'");
    }
    Cert cert = newCertificate(subject.commonName, validity, key.get(), subject.organizationalUnit);
    const bool ok =
        cert && X509_set_issuer_name(cert.get(), X509_get_subject_name(caCert.get())) == 1 &&
        addExtension(cert.get(), caCert.get(), NID_basic_constraints, "critical,CA:FALSE") &&
        addExtension(cert.get(), caCert.get(), NID_key_usage,
                     "critical,digitalSignature,keyEncipherment") &&
        addExtension(cert.get(), caCert.get(), NID_ext_key_usage,
                     subject.clientOnly ? "clientAuth" : "serverAuth,clientAuth") &&
        addExtension(cert.get(), caCert.get(), NID_authority_key_identifier, "keyid") &&
        (san.empty() || addExtension(cert.get(), caCert.get(), NID_subject_alt_name, san)) &&
        X509_sign(cert.get(), caKey.get(), EVP_sha256()) != 0;
    if (!ok) {
        return sslFailure("cannot issue a certificate for '" + subject.commonName + "'");
    }
    return KeyAndCert{keyPem(key.get()), certPem(cert.get())};
}

Result<CertificateInfo> inspect(const std::string& certText) {
    Cert cert = loadCert(certText);
    if (!cert) {
        ERR_clear_error();
        return fail(ErrorCode::InvalidArgument, "not a PEM certificate");
    }
    CertificateInfo info;
    info.subject = nameLine(X509_get_subject_name(cert.get()));
    info.issuer = nameLine(X509_get_issuer_name(cert.get()));
    info.commonName = nameEntry(X509_get_subject_name(cert.get()), NID_commonName);
    info.organizationalUnit =
        nameEntry(X509_get_subject_name(cert.get()), NID_organizationalUnitName);
    if (BIGNUM* bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert.get()), nullptr)) {
        if (char* hexSerial = BN_bn2hex(bn)) {
            info.serial = hexSerial;
            OPENSSL_free(hexSerial);
            for (char& c : info.serial) {
                c = char(std::tolower(static_cast<unsigned char>(c)));
            }
        }
        BN_free(bn);
    }
    info.notBefore = toTime(X509_get0_notBefore(cert.get()));
    info.notAfter = toTime(X509_get0_notAfter(cert.get()));
    auto* names = static_cast<GENERAL_NAMES*>(
        X509_get_ext_d2i(cert.get(), NID_subject_alt_name, nullptr, nullptr));
    for (int i = 0; names && i < sk_GENERAL_NAME_num(names); ++i) {
        const GENERAL_NAME* n = sk_GENERAL_NAME_value(names, i);
        if (n->type == GEN_DNS) {
            info.names.emplace_back(
                reinterpret_cast<const char*>(ASN1_STRING_get0_data(n->d.dNSName)),
                ASN1_STRING_length(n->d.dNSName));
        } else if (n->type == GEN_IPADD) {
            char buf[INET6_ADDRSTRLEN] = {};
            const int len = ASN1_STRING_length(n->d.iPAddress);
            inet_ntop(len == 4 ? AF_INET : AF_INET6, ASN1_STRING_get0_data(n->d.iPAddress), buf,
                      sizeof buf);
            info.names.emplace_back(buf);
        }
    }
    GENERAL_NAMES_free(names);
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdLen = 0;
    X509_digest(cert.get(), EVP_sha256(), md, &mdLen);
    static const char* hex = "0123456789abcdef";
    for (unsigned int i = 0; i < mdLen; ++i) {
        info.sha256 += (i ? ":" : "");
        info.sha256 += hex[md[i] >> 4];
        info.sha256 += hex[md[i] & 15];
    }
    return info;
}

Result<void> verify(const std::string& certText, const std::string& caText, std::time_t at) {
    Cert cert = loadCert(certText);
    Cert ca = loadCert(caText);
    if (!cert || !ca) {
        ERR_clear_error();
        return fail(ErrorCode::InvalidArgument,
                    cert ? "the CA certificate is not PEM" : "the certificate is not PEM");
    }
    Store store(X509_STORE_new());
    StoreCtx ctx(X509_STORE_CTX_new());
    if (!store || !ctx || X509_STORE_add_cert(store.get(), ca.get()) != 1 ||
        X509_STORE_CTX_init(ctx.get(), store.get(), cert.get(), nullptr) != 1) {
        return sslFailure("cannot set up certificate verification");
    }
    X509_STORE_CTX_set_time(ctx.get(), 0, at);
    if (X509_verify_cert(ctx.get()) == 1) {
        return {};
    }
    const int err = X509_STORE_CTX_get_error(ctx.get());
    ERR_clear_error();
    const std::string subject = nameLine(X509_get_subject_name(cert.get()));
    switch (err) {
    case X509_V_ERR_CERT_HAS_EXPIRED:
        return fail(ErrorCode::PermissionDenied,
                    "the certificate of " + subject + " expired on " +
                        utcText(toTime(X509_get0_notAfter(cert.get()))));
    case X509_V_ERR_CERT_NOT_YET_VALID:
        return fail(ErrorCode::PermissionDenied,
                    "the certificate of " + subject + " is valid only from " +
                        utcText(toTime(X509_get0_notBefore(cert.get()))) +
                        " (is this machine's clock right?)");
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_CERT_SIGNATURE_FAILURE:
        return fail(ErrorCode::PermissionDenied,
                    "the certificate of " + subject + " was issued by " +
                        nameLine(X509_get_issuer_name(cert.get())) +
                        ", not by this cluster's CA (" + nameLine(X509_get_subject_name(ca.get())) +
                        ")");
    default:
        return fail(ErrorCode::PermissionDenied,
                    "the certificate of " + subject +
                        " does not verify: " + X509_verify_cert_error_string(err));
    }
}

bool keyMatches(const std::string& keyText, const std::string& certText) {
    Key key = loadKey(keyText);
    Cert cert = loadCert(certText);
    const bool ok = key && cert && X509_check_private_key(cert.get(), key.get()) == 1;
    ERR_clear_error();
    return ok;
}

} // namespace tessera::tls

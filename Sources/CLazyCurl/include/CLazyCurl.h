#ifndef NIMBUS_CLAZYCURL_H
#define NIMBUS_CLAZYCURL_H

/// libcurl, loaded when the network is first used instead of when the program starts.
///
/// FoundationNetworking (URLSession on Linux) calls libcurl, and libcurl brings in some thirty
/// libraries (TLS, Kerberos, LDAP, SSH, IDN, compression...). Loading them all at start-up took
/// about a third of Nimbus's time to its first frame, for a library most sessions use seconds
/// later, if at all. Release builds drop libcurl from the start-up link (scripts/build-release.sh)
/// and the functions FoundationNetworking calls are defined here instead: each one forwards to
/// libcurl, which `nimbus_curl_load` opens the first time.

/// Opens libcurl.so.4 and looks up every function forwarded here, once (later calls return the
/// first answer; safe from any thread). Returns 1 when libcurl is ready, 0 when it can't be used.
int nimbus_curl_load(void);

/// Why libcurl can't be used (the loader's message, or the function it lacks); NULL when it can.
const char *nimbus_curl_load_error(void);

#endif

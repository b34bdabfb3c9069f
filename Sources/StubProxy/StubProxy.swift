// StubProxy: requests forwarded to an upstream (URLSession, or libcurl and plain sockets on Linux) and answers
// recorded as stubs: the recorder, the stub writer, secret filtering, HAR import. Without the Slim trait only.

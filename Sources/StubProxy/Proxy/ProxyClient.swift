import StubModel

#if !Slim
    import Foundation
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
    import StubHTTP

    /// Forwards requests to upstream servers, `https://` ones with one `URLSession` (on Linux with libcurl's
    /// multi interface when it loads: `forwardTLS(_:upstream:via:completion:)`), `http://` ones over
    /// connections of its own (``forwardPlain(_:to:upstream:via:completion:)``), asynchronously: nothing here waits
    /// for the network, so a caller on an event loop or a worker thread returns at once and hears back
    /// through its completion (on the session's delegate queue, or the poller's thread).
    ///
    /// Every exchange ends: with the upstream's answer, or with a ``ProxyFailure`` (refused, TLS, body
    /// beyond ``ProxySettings/maxResponseBytes``, or no complete answer within ``ProxySettings/timeout``,
    /// enforced by a timer of its own whatever `URLSession` does). Redirects are returned, not followed;
    /// no cookie jar, no cache.
    final class ProxyClient: NSObject, ProxyTransport, @unchecked Sendable {
        typealias Completion = ProxyCompletion

        /// One forwarded request in flight.
        struct Exchange {
            let task: URLSessionDataTask
            let upstreamURL: String
            let request: String
            let completion: Completion
            var response: HTTPURLResponse?
            var body = Data()
            /// Set when this client ended the exchange (timeout, size), so the cancellation is reported as such.
            var failure: ProxyFailure.Kind?
        }

        let settings: ProxySettings
        /// Waits for the `http://` upstreams' answers (``forwardPlain(_:to:upstream:via:completion:)``).
        let poller = UpstreamPoller()
        #if canImport(Glibc)
            /// Waits for the `https://` upstreams' answers through libcurl (`forwardTLS(_:upstream:via:completion:)`).
            let curl = CurlPoller()
        #endif
        // `exchanges`, `session` and `isShutDown` are guarded by `lock`.
        private let lock = NSLock()
        private var exchanges: [Int: Exchange] = [:]
        private var session: URLSession?
        private var isShutDown = false

        init(settings: ProxySettings) {
            self.settings = settings
        }

        /// Forwards `request` as `definition` says; `completion` runs once, on another thread.
        func forward(_ request: StubHTTPRequest, via definition: ProxyDefinition, completion: @escaping Completion) {
            let upstream = definition.upstreamURL(for: request)
            let label = "\(request.method) \(request.pathAndQuery)"
            guard let url = URL(string: upstream), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https",
                url.host != nil
            else {
                return completion(.failure(ProxyFailure(kind: .badURL, upstreamURL: upstream, request: label)))
            }
            if scheme == "http" {
                return forwardPlain(request, to: url, upstream: upstream, via: definition, completion: completion)
            }
            #if canImport(Glibc)
                if CurlPoller.isAvailable {
                    return forwardTLS(request, upstream: upstream, via: definition, completion: completion)
                }
            #endif
            var urlRequest = URLRequest(url: url)
            urlRequest.httpMethod = request.method.rawValue
            urlRequest.timeoutInterval = settings.timeoutInterval
            for field in definition.forwardedHeaders(for: request) {
                urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
            }
            // Bodies come back decoded (URLSession inflates them), so ask only for what it can inflate.
            urlRequest.setValue("gzip, deflate", forHTTPHeaderField: "Accept-Encoding")
            if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }

            lock.lock()
            guard !isShutDown else {
                lock.unlock()
                return completion(
                    .failure(
                        ProxyFailure(
                            kind: .unreachable("the server is stopping"), upstreamURL: upstream, request: label)))
            }
            let session = self.session ?? makeSession()
            self.session = session
            let task = session.dataTask(with: urlRequest)
            exchanges[task.taskIdentifier] = Exchange(
                task: task, upstreamURL: upstream, request: label, completion: completion)
            lock.unlock()

            let identifier = task.taskIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + settings.timeoutInterval) { [self] in
                end(identifier, because: .timedOut(settings.timeout))
            }
            task.resume()
        }

        /// Cancels every exchange in flight (their clients get a 502) and releases the session. Idempotent.
        func shutdown() {
            poller.shutdown()
            #if canImport(Glibc)
                curl.shutdown()
            #endif
            lock.lock()
            isShutDown = true
            let session = self.session
            self.session = nil
            lock.unlock()
            session?.invalidateAndCancel()
        }

        /// Ends exchange `identifier` early with `kind`, if it is still in flight.
        func end(_ identifier: Int, because kind: ProxyFailure.Kind) {
            lock.lock()
            guard exchanges[identifier] != nil, exchanges[identifier]?.failure == nil else { return lock.unlock() }
            exchanges[identifier]?.failure = kind
            let task = exchanges[identifier]?.task
            lock.unlock()
            task?.cancel()
        }

        /// Runs `body` on exchange `identifier` under the lock; `nil` when it is no longer in flight.
        func withExchange<T>(_ identifier: Int, _ body: (inout Exchange) -> T) -> T? {
            lock.lock()
            defer { lock.unlock() }
            guard var exchange = exchanges[identifier] else { return nil }
            defer { exchanges[identifier] = exchange }
            return body(&exchange)
        }

        /// Removes exchange `identifier` and returns it.
        func remove(_ identifier: Int) -> Exchange? {
            lock.lock()
            defer { lock.unlock() }
            return exchanges.removeValue(forKey: identifier)
        }

        private func makeSession() -> URLSession {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
            // The timer in forward(_:via:completion:) is the real bound; these only back it up.
            configuration.timeoutIntervalForRequest = settings.timeoutInterval + 1
            configuration.timeoutIntervalForResource = settings.timeoutInterval + 1
            let queue = OperationQueue()
            queue.name = "stubserver-proxy"
            queue.maxConcurrentOperationCount = 1
            return URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        }
    }

    extension ProxySettings {
        /// ``timeout`` in seconds, as Foundation wants it.
        var timeoutInterval: TimeInterval {
            max(0.001, timeout.timeInterval)
        }
    }
#endif

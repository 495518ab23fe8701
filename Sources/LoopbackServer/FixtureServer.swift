import Foundation
import Glibc

/// An in-process HTTP/1.1 server on 127.0.0.1 with a random port, serving scripted responses per path.
///
/// Small and bounded on purpose: POSIX sockets, one thread to accept and one per connection (at most
/// `maxConnections` at a time), requests of at most 64 KiB, one response per connection
/// (`Connection: close`). It stops by itself on `deinit`; a hanging response ends when it stops.
public final class FixtureServer: Sendable {
    /// How a response goes out.
    public enum Behaviour: Equatable, Sendable {
        /// Status, headers and body at once.
        case normal
        /// Waits, then answers normally.
        case delay(TimeInterval)
        /// Reads the request and never answers (until the server stops).
        case hang
        /// Sends the body `chunk` bytes at a time, `interval` apart.
        case drip(chunk: Int, interval: TimeInterval)
        /// Announces the whole body in Content-Length, sends only its first `bytes`, then closes.
        case truncate(bytes: Int)
        /// Closes the connection without answering.
        case close
        /// Sends a body of `bytes` bytes of `filler` (no need to hold it in memory), with its Content-Length
        /// unless `announced` is false.
        case huge(bytes: Int, announced: Bool)
        /// A gzip stream that inflates to `decodedBytes` zero bytes (about 1,000 times smaller on the
        /// wire), sent with `Content-Encoding: gzip` and its compressed Content-Length.
        case gzipZeros(decodedBytes: Int)
        /// Sends the head and the first `bytes` of the body, then resets the connection (RST).
        case reset(afterBytes: Int)
        /// Sends `body` as is, with no status line or headers (an HTTP/0.9 reply).
        case raw
        /// Sends the file at `path` as the body, 64 KiB at a time from the disk, with its
        /// Content-Length: the server holds none of it (a measurement of the client's memory
        /// counts only the client's).
        case file(String)
        /// A 302 to the very URL asked for (path and query): a redirect loop on one origin.
        case redirectToItself
    }

    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data
        public var behaviour: Behaviour

        public init(status: Int = 200, headers: [String: String] = ["Content-Type": "application/json"],
                    body: Data = Data(), behaviour: Behaviour = .normal) {
            self.status = status
            self.headers = headers
            self.body = body
            self.behaviour = behaviour
        }

        public init(status: Int = 200, json: String, behaviour: Behaviour = .normal) {
            self.init(status: status, body: Data(json.utf8), behaviour: behaviour)
        }
    }

    /// A request as the server read it.
    public struct Request: Sendable, Equatable {
        public let method: String
        /// The path without the query.
        public let path: String
        /// The query items, decoded.
        public let query: [String: String]
        /// The target exactly as sent (path and query).
        public let target: String
        public let headers: [String: String]
    }

    public typealias Handler = @Sendable (Request) -> Response

    /// Where to send requests: `http://127.0.0.1:PORT`.
    public let baseURL: URL
    public let port: UInt16
    private let core: Core

    /// Starts listening at once. Paths without a route get a 404.
    public init(maxConnections: Int = 16) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FixtureServerError.socket(errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw FixtureServerError.socket(code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        core = Core(listener: fd, maxConnections: maxConnections)
        // The threads hold the core, never the server, so dropping the server stops everything.
        let core = self.core
        let thread = Thread { core.acceptLoop() }
        thread.name = "FixtureServer.accept"
        thread.start()
    }

    deinit { core.stop() }

    // MARK: Script

    /// Answers every request for `path` with `response`.
    public func route(_ path: String, _ response: Response) {
        route(path) { _ in response }
    }

    /// Answers requests for `path` with what `handler` returns.
    public func route(_ path: String, handler: @escaping Handler) {
        core.lock.lock()
        core.routes[path] = handler
        core.lock.unlock()
    }

    /// Answers paths without a route.
    public func fallback(_ handler: @escaping Handler) {
        core.lock.lock()
        core.fallback = handler
        core.lock.unlock()
    }

    /// Every request read so far, oldest first.
    public var requests: [Request] {
        core.lock.lock()
        defer { core.lock.unlock() }
        return core.log
    }

    /// Connections being served right now.
    public var openConnections: Int {
        core.lock.lock()
        defer { core.lock.unlock() }
        return core.open
    }

    /// Stops accepting, ends hanging responses and closes every connection. Safe to call twice.
    public func stop() { core.stop() }

    // MARK: Serving

    private final class Core: @unchecked Sendable { // unchecked: `lock` (an NSCondition: handlers wait on it, Mutex cannot) guards the vars
        let lock = NSCondition()
        let listener: Int32
        let maxConnections: Int
        var routes: [String: Handler] = [:]
        var fallback: Handler = { _ in
            Response(status: 404, json: #"{"error":true,"reason":"no fixture for this path"}"#)
        }
        var log: [Request] = []
        var open = 0
        var stopped = false
        var clients: Set<Int32> = []

        init(listener: Int32, maxConnections: Int) {
            self.listener = listener
            self.maxConnections = maxConnections
        }

        func stop() {
            lock.lock()
            if stopped { lock.unlock(); return }
            stopped = true
            let clients = self.clients
            lock.broadcast()
            lock.unlock()
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
            for fd in clients { shutdown(fd, Int32(SHUT_RDWR)) }
        }

        func acceptLoop() {
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 {
                    if errno == EINTR { continue }
                    return
                }
                guard admit(client) else {
                    close(client)
                    lock.lock()
                    let done = stopped
                    lock.unlock()
                    if done { return }
                    continue
                }
                let thread = Thread { [self] in
                    let reset = serve(client)
                    release(client)
                    if reset { close(client) } else { Self.closeGracefully(client) }
                }
                thread.name = "FixtureServer.connection"
                thread.start()
            }
        }
        /// Sends FIN, then reads what the client still sends (briefly) before closing: closing a socket
        /// with unread bytes makes the kernel send RST, and a client can then lose a response it had
        /// not read yet (a "connection reset" instead of the scripted answer, now and then, under load).
        static func closeGracefully(_ fd: Int32) {
            shutdown(fd, Int32(SHUT_WR))
            var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var scratch = [UInt8](repeating: 0, count: 4096)
            while read(fd, &scratch, scratch.count) > 0 {}
            close(fd)
        }

        private func admit(_ fd: Int32) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            guard !stopped, open < maxConnections else { return false }
            open += 1
            clients.insert(fd)
            return true
        }

        private func release(_ fd: Int32) {
            lock.lock()
            open -= 1
            clients.remove(fd)
            lock.unlock()
        }

        /// Serves one request; true when the connection was reset and must be closed at once.
        private func serve(_ fd: Int32) -> Bool {
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            guard let request = Self.readRequest(fd) else { return false }
            lock.lock()
            log.append(request)
            let handler = routes[request.path] ?? fallback
            lock.unlock()
            let response = handler(request)
            switch response.behaviour {
            case .normal:
                write(fd, head(response, length: response.body.count) + response.body)
            case .delay(let seconds):
                guard wait(seconds) else { return false }
                write(fd, head(response, length: response.body.count) + response.body)
            case .hang:
                _ = wait(60)
            case .drip(let chunk, let interval):
                guard write(fd, head(response, length: response.body.count)) else { return false }
                var offset = 0
                let step = max(1, chunk)
                while offset < response.body.count {
                    let end = min(response.body.count, offset + step)
                    guard write(fd, response.body.subdata(in: offset..<end)), wait(interval) else { return false }
                    offset = end
                }
            case .truncate(let bytes):
                write(fd, head(response, length: response.body.count) + response.body.prefix(max(0, bytes)))
            case .close:
                return false
            case .gzipZeros(let decoded):
                let gzip = GzipZeros.stream(count: decoded)
                var headed = response
                headed.headers["Content-Encoding"] = "gzip"
                write(fd, head(headed, length: gzip.count) + gzip)
            case .reset(let bytes):
                guard write(fd, head(response, length: response.body.count) + response.body.prefix(max(0, bytes))) else {
                    return false
                }
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                return true
            case .raw:
                write(fd, response.body)
            case .redirectToItself:
                var headed = response
                headed.headers["Location"] = request.target
                write(fd, head(headed, length: 0))
            case .file(let path):
                guard let handle = FileHandle(forReadingAtPath: path) else { return false }
                defer { try? handle.close() }
                let size = (try? handle.seekToEnd()).map(Int.init) ?? 0
                try? handle.seek(toOffset: 0)
                guard write(fd, head(response, length: size)) else { return false }
                while let block = try? handle.read(upToCount: 64 << 10), !block.isEmpty {
                    guard write(fd, block) else { return false }
                }
            case .huge(let bytes, let announced):
                guard write(fd, head(response, length: announced ? bytes : nil)) else { return false }
                let block = Data(repeating: UInt8(ascii: "x"), count: 64 << 10)
                var sent = 0
                while sent < bytes {
                    let n = min(block.count, bytes - sent)
                    guard write(fd, block.prefix(n)) else { return false }
                    sent += n
                }
            }
            return false
        }

        /// Waits `seconds`, or less when the server stops; returns false when it stopped.
        private func wait(_ seconds: TimeInterval) -> Bool {
            let until = Date(timeIntervalSinceNow: seconds)
            lock.lock()
            defer { lock.unlock() }
            while !stopped {
                if !lock.wait(until: until) { return !stopped }
            }
            return false
        }

        private func head(_ response: Response, length: Int?) -> Data {
            var lines = ["HTTP/1.1 \(response.status) \(Self.reason(response.status))"]
            for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) { lines.append("\(name): \(value)") }
            if let length { lines.append("Content-Length: \(length)") }
            lines.append("Connection: close")
            return Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        }

        @discardableResult
        private func write(_ fd: Int32, _ data: Data) -> Bool {
            data.withUnsafeBytes { raw -> Bool in
                guard var p = raw.baseAddress else { return true }
                var left = raw.count
                while left > 0 {
                    let n = send(fd, p, left, Int32(MSG_NOSIGNAL))
                    if n < 0, errno == EINTR { continue }
                    if n <= 0 { return false }
                    p += n
                    left -= n
                }
                return true
            }
        }

        private static func readRequest(_ fd: Int32) -> Request? {
            var buffer = [UInt8]()
            var chunk = [UInt8](repeating: 0, count: 4096)
            let end: [UInt8] = [13, 10, 13, 10]
            while buffer.count < 64 << 10 {
                let n = recv(fd, &chunk, chunk.count, 0)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { return nil }
                buffer += chunk[0..<n]
                if let headEnd = find(end, in: buffer) {
                    return parse(String(decoding: buffer[0..<headEnd], as: UTF8.self))
                }
            }
            return nil
        }

        private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
            guard haystack.count >= needle.count else { return nil }
            for i in 0...(haystack.count - needle.count) where haystack[i..<(i + needle.count)].elementsEqual(needle) {
                return i
            }
            return nil
        }

        private static func parse(_ head: String) -> Request? {
            let lines = head.components(separatedBy: "\r\n")
            let parts = lines.first?.split(separator: " ") ?? []
            guard parts.count == 3 else { return nil }
            let target = String(parts[1])
            let components = URLComponents(string: target)
            var query: [String: String] = [:]
            for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            return Request(method: String(parts[0]), path: components?.path ?? target, query: query,
                           target: target, headers: headers)
        }

        private static func reason(_ status: Int) -> String {
            switch status {
            case 200: return "OK"
            case 204: return "No Content"
            case 400: return "Bad Request"
            case 404: return "Not Found"
            case 429: return "Too Many Requests"
            case 500: return "Internal Server Error"
            case 503: return "Service Unavailable"
            default: return "Status"
            }
        }
    }
}

/// A gzip member of zero bytes built by hand: one dynamic-Huffman block whose length-258,
/// distance-1 match costs two bits, so it inflates about 1,000 times (2 MB on the wire → 2 GB).
public enum GzipZeros {
    public static func stream(count: Int) -> Data {
        var out: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03]
        out.reserveCapacity(count / 1000 + 64)
        var bitBuffer: UInt64 = 0
        var bitCount = 0
        func bits(_ value: UInt64, _ n: Int) {
            bitBuffer |= value << UInt64(bitCount)
            bitCount += n
            while bitCount >= 8 {
                out.append(UInt8(truncatingIfNeeded: bitBuffer))
                bitBuffer >>= 8
                bitCount -= 8
            }
        }
        /// Huffman codes go most significant bit first.
        func code(_ value: UInt64, _ n: Int) {
            var reversed: UInt64 = 0
            for i in 0..<n where value & (1 << UInt64(i)) != 0 { reversed |= 1 << UInt64(n - 1 - i) }
            bits(reversed, n)
        }
        bits(1, 1) // final block
        bits(2, 2) // dynamic Huffman
        bits(29, 5) // 286 literal/length codes
        bits(0, 5)  // 1 distance code
        bits(14, 4) // 18 code-length code lengths
        // In RFC 1951 order 16 17 18 0 8 7 9 6 10 5 11 4 12 3 13 2 14 1: symbol 18 → 1 bit, 2 and 1 → 2 bits.
        for length in [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2] as [UInt64] { bits(length, 3) }
        // Code-length codes: 18 = 0, 1 = 10, 2 = 11.
        code(0b11, 2)                  // literal 0: length 2
        code(0, 1); bits(138 - 11, 7)  // 138 zeros
        code(0, 1); bits(117 - 11, 7)  // 117 zeros (literals 1…255)
        code(0b11, 2)                  // 256 (end of block): length 2
        code(0, 1); bits(28 - 11, 7)   // lengths 257…284 unused
        code(0b10, 2)                  // 285 (length 258): length 1
        code(0b10, 2)                  // distance 0 (distance 1): length 1
        // Literal/length codes: 285 = 0, literal 0 = 10, end = 11; distance 0 = 0.
        var left = count
        if left > 0 { code(0b10, 2); left -= 1 }
        var matches = left / 258
        left -= matches * 258
        if matches >= 4 {
            // Matches are all-zero bits: after one zero byte flushes what is pending, whole zero
            // bytes (four matches each) can go straight out.
            bits(0, 8)
            matches -= 4
            out.append(contentsOf: repeatElement(0, count: matches / 4))
            matches %= 4
        }
        while matches > 0 { bits(0, 2); matches -= 1 }
        while left > 0 { code(0b10, 2); left -= 1 }
        code(0b11, 2)
        if bitCount > 0 { bits(0, 8 - bitCount) }
        let crc = crcOfZeros(count)
        let size = UInt32(truncatingIfNeeded: count)
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: size >> UInt32(shift))) }
        return Data(out)
    }

    /// CRC-32 of `count` zero bytes, by squaring the "append one zero byte" operator (O(log n)).
    static func crcOfZeros(_ count: Int) -> UInt32 {
        // The CRC register after zero bytes evolves linearly: crc' = M(crc); with the pre/post
        // inversion, crc(zeros n) = ~M^n(~0).
        typealias Matrix = [UInt32] // 32 columns
        func times(_ m: Matrix, _ v: UInt32) -> UInt32 {
            var r: UInt32 = 0
            for i in 0..<32 where v & (1 << UInt32(i)) != 0 { r ^= m[i] }
            return r
        }
        func square(_ m: Matrix) -> Matrix { m.map { times(m, $0) } }
        // One zero byte = eight zero bits.
        var bit: Matrix = (0..<32).map { i -> UInt32 in
            let v: UInt32 = 1 << UInt32(i)
            return v & 1 != 0 ? (v >> 1) ^ 0xEDB8_8320 : v >> 1
        }
        for _ in 0..<3 { bit = square(bit) }
        var crc: UInt32 = 0xFFFF_FFFF
        var n = count
        var power = bit
        while n > 0 {
            if n & 1 != 0 { crc = times(power, crc) }
            power = square(power)
            n >>= 1
        }
        return ~crc
    }
}

public enum FixtureServerError: Error, Equatable {
    case socket(Int32)
}

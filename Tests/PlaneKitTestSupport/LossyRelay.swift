import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PlaneKitGeometry
import Synchronization

/// A user-space stand-in for `tc netem` (this kernel may have no `sch_netem`): a relay on a
/// loopback port that passes TCP through unchanged, and UDP from its client towards `target`
/// with a seeded share of the datagrams dropped and the rest held for a fixed delay. Datagrams
/// coming back from the target go to the client at once.
///
/// A peer that joins `127.0.0.1:port` then has its reliable channel proxied as it is and its
/// pose channel impaired. Every thread polls with a 50 ms timeout and ends on ``stop()``.
public final class LossyRelay: Sendable {
    /// What the relay did with the client's datagrams.
    public struct Counts: Sendable, Equatable {
        /// Datagrams from the client.
        public var received = 0
        /// Of those, dropped.
        public var dropped = 0
        /// Of those, passed on to the target after the delay.
        public var forwarded = 0
        /// Datagrams from the target passed back to the client.
        public var returned = 0
    }

    /// The port the relay listens on (TCP and UDP).
    public let port: Int
    private let target: Int
    private let lossPercent: Double
    private let delay: Duration
    private let listener: Int32
    private let udp: Int32
    private let upstream: Int32
    private let stopping = Atomic<Bool>(false)
    private let running = Atomic<Int>(0)
    private let state: Mutex<(counts: Counts, random: SplitMix64)>

    /// A relay to `127.0.0.1:target` dropping `lossPercent` % of the client's datagrams (the
    /// choice seeded by `seed`) and delaying the others by `delay`.
    public init(target: Int, lossPercent: Double, delay: Duration, seed: UInt64) throws {
        self.target = target
        self.lossPercent = lossPercent
        self.delay = delay
        state = Mutex((Counts(), SplitMix64(seed: seed)))
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        udp = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        upstream = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard listener >= 0, udp >= 0, upstream >= 0, Self.bind(listener, port: 0), listen(listener, 8) == 0 else {
            throw RelayError.socket("cannot listen on loopback: errno \(errno)")
        }
        port = Self.boundPort(listener)
        guard Self.bind(udp, port: port), Self.connect(upstream, port: target) else {
            throw RelayError.socket("cannot bind UDP port \(port) or reach port \(target): errno \(errno)")
        }
        start { $0.acceptConnections() }
        start { $0.relayDatagrams() }
    }

    /// Why a relay could not be set up.
    public enum RelayError: Error {
        /// A socket call failed.
        case socket(String)
    }

    /// The counts so far.
    public var counts: Counts { state.withLock { $0.counts } }

    /// Stops every thread (waiting at most 2 s) and closes the sockets.
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        let deadline = Date(timeIntervalSinceNow: 2)
        while running.load(ordering: .relaxed) > 0, Date() < deadline { usleep(10_000) }
        for fd in [listener, udp, upstream] { close(fd) }
    }

    private func start(_ body: @escaping @Sendable (LossyRelay) -> Void) {
        running.add(1, ordering: .relaxed)
        Thread.detachNewThread { [self] in
            body(self)
            running.subtract(1, ordering: .relaxed)
        }
    }

    private var stopped: Bool { stopping.load(ordering: .relaxed) }

    /// Waits up to 50 ms for `fds` to be readable; which are.
    private static func readable(_ fds: [Int32], milliseconds: Int32 = 50) -> [Bool] {
        var polled = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&polled, nfds_t(polled.count), milliseconds) > 0 else { return fds.map { _ in false } }
        return polled.map { $0.revents != 0 }
    }

    // MARK: TCP, unchanged

    private func acceptConnections() {
        while !stopped {
            guard Self.readable([listener])[0] else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard Self.connect(server, port: target) else {
                close(client)
                close(server)
                continue
            }
            start { $0.pump(client, server) }
        }
    }

    /// Copies bytes both ways until either side closes (or the relay stops), then closes both.
    private func pump(_ a: Int32, _ b: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        loop: while !stopped {
            let ready = Self.readable([a, b])
            for (from, to) in [(a, b), (b, a)] where ready[from == a ? 0 : 1] {
                let n = read(from, &buffer, buffer.count)
                guard n > 0, Self.writeAll(to, buffer, n) else { break loop }
            }
        }
        close(a)
        close(b)
    }

    private static func writeAll(_ fd: Int32, _ buffer: [UInt8], _ count: Int) -> Bool {
        var offset = 0
        while offset < count {
            let n = buffer.withUnsafeBytes { write(fd, $0.baseAddress! + offset, count - offset) }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    // MARK: UDP, impaired one way

    private func relayDatagrams() {
        var buffer = [UInt8](repeating: 0, count: 2048)
        var client = sockaddr_in(), clientKnown = false
        var held: [(due: ContinuousClock.Instant, bytes: [UInt8])] = []
        while !stopped {
            let ready = Self.readable([udp, upstream], milliseconds: held.isEmpty ? 50 : 5)
            if ready[0] {
                var length = socklen_t(MemoryLayout<sockaddr_in>.size)
                let n = withUnsafeMutablePointer(to: &client) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(udp, &buffer, buffer.count, 0, $0, &length) }
                }
                if n > 0 {
                    clientKnown = true
                    let drop = state.withLock { s in
                        s.counts.received += 1
                        let drop = Double(s.random.next() % 10_000) < lossPercent * 100
                        if drop { s.counts.dropped += 1 }
                        return drop
                    }
                    if !drop { held.append((ContinuousClock.now + delay, Array(buffer[..<n]))) }
                }
            }
            if ready[1] {
                let n = recv(upstream, &buffer, buffer.count, 0)
                if n > 0, clientKnown {
                    let sent = withUnsafePointer(to: &client) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            sendto(udp, buffer, n, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                        }
                    }
                    if sent == n { state.withLock { $0.counts.returned += 1 } }
                }
            }
            let now = ContinuousClock.now
            while let first = held.first, first.due <= now {
                held.removeFirst()
                if send(upstream, first.bytes, first.bytes.count, 0) == first.bytes.count {
                    state.withLock { $0.counts.forwarded += 1 }
                }
            }
        }
    }

    // MARK: Sockets

    private static func loopback(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        return address
    }

    private static func bind(_ fd: Int32, port: Int) -> Bool {
        var address = loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    private static func connect(_ fd: Int32, port: Int) -> Bool {
        var address = loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    private static func boundPort(_ fd: Int32) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

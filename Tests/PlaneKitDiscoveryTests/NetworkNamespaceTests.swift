import Foundation
import Glibc
import PlaneKitTestSupport
import Synchronization
import Testing

/// The namespace harness itself: UDP between two namespaces, plain and through `tc netem`.
@Suite struct NetworkNamespaceTests {
    /// 1000 datagrams, 0.5 ms apart, from namespace 0 to namespace 1.
    static let packetCount = 1000

    @Test(.enabled(if: NetworkNamespaces.problem == nil, Comment(rawValue: NetworkNamespaces.problem ?? "")))
    func datagramsCrossTheBridgeWithoutLoss() throws {
        let namespaces = try NetworkNamespaces(count: 2)
        defer { namespaces.destroy() }
        let measured = try UDPMeasurement.run(namespaces, packets: Self.packetCount)
        #expect(measured.received == Self.packetCount)
        #expect(measured.duplicates == 0)
        // A veth pair and a bridge add microseconds; 25 ms is the netem test's lower bound.
        #expect(measured.medianDelayMilliseconds < 25, "median delay \(measured.medianDelayMilliseconds) ms")
    }

    @Test(.enabled(if: NetworkNamespaces.netemProblem == nil, Comment(rawValue: NetworkNamespaces.netemProblem ?? "")))
    func netemDropsAndDelays() throws {
        let namespaces = try NetworkNamespaces(count: 2, impairment: NetworkImpairment(lossPercent: 20, delayMilliseconds: 30))
        defer { namespaces.destroy() }
        let measured = try UDPMeasurement.run(namespaces, packets: Self.packetCount)
        let loss = 1 - Double(measured.received) / Double(Self.packetCount)
        // Binomial(1000, 0.2): the standard deviation is 1.3 points, so 10–30 % is over 7 of them.
        #expect(loss >= 0.10 && loss <= 0.30, "loss \(loss)")
        #expect(measured.duplicates == 0)
        #expect(measured.medianDelayMilliseconds >= 25 && measured.medianDelayMilliseconds <= 60,
                "median delay \(measured.medianDelayMilliseconds) ms")
    }
}

/// What the receiving namespace saw of a burst of numbered, time-stamped datagrams.
struct UDPMeasurement {
    var received = 0
    var duplicates = 0
    var medianDelayMilliseconds = 0.0

    /// Sends `packets` datagrams from namespace 0 to namespace 1 and measures them on arrival.
    /// Every wait is bounded: the receiver stops 1.5 s after the last send at the latest.
    static func run(_ namespaces: NetworkNamespaces, packets: Int) throws -> UDPMeasurement {
        let port: UInt16 = 47_213
        let receiver = try namespaces.withNamespace(1) { try UDPSocket(binding: namespaces.address(1), port: port) }
        defer { receiver.close() }
        let sender = try namespaces.withNamespace(0) { try UDPSocket(connectingTo: namespaces.address(1), port: port) }
        defer { sender.close() }

        let shared = ReceiverState()
        let receiving = Thread {
            var buffer = [UInt8](repeating: 0, count: 64)
            while true {
                let count = receiver.receive(into: &buffer)
                let now = monotonicNanoseconds()
                if count >= 12 {
                    let sequence = buffer.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
                    let sent = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4, as: UInt64.self) }
                    shared.arrivals.withLock { $0.append((sequence, now &- sent)) }
                }
                let done = shared.sendingDone.load(ordering: .acquiring)
                if done != 0, now > done + 1_500_000_000 { break }
                if shared.arrivals.withLock({ $0.count }) >= packets { break }
            }
            shared.finished.store(true, ordering: .releasing)
        }
        receiving.start()
        var payload = [UInt8](repeating: 0, count: 12)
        for sequence in 0..<UInt32(packets) {
            let now = monotonicNanoseconds()
            payload.withUnsafeMutableBytes {
                $0.storeBytes(of: sequence, as: UInt32.self)
                $0.storeBytes(of: now, toByteOffset: 4, as: UInt64.self)
            }
            sender.send(payload)
            usleep(500)
        }
        shared.sendingDone.store(monotonicNanoseconds(), ordering: .releasing)
        let deadline = ContinuousClock.now + .seconds(5)
        while !shared.finished.load(ordering: .acquiring), ContinuousClock.now < deadline { usleep(10_000) }

        let seen = shared.arrivals.withLock { $0 }
        var measurement = UDPMeasurement()
        let unique = Set(seen.map(\.sequence))
        measurement.received = unique.count
        measurement.duplicates = seen.count - unique.count
        let delays = seen.map { Double($0.delay) / 1e6 }.sorted()
        measurement.medianDelayMilliseconds = delays.isEmpty ? .infinity : delays[delays.count / 2]
        return measurement
    }
}

/// What the receiving thread and the sending test share.
final class ReceiverState: Sendable {
    /// Each arrival's sequence number and one-way delay in nanoseconds.
    let arrivals = Mutex<[(sequence: UInt32, delay: UInt64)]>([])
    /// When the last datagram was sent (0 while sending).
    let sendingDone = Atomic<UInt64>(0)
    /// Set by the receiver when it stops.
    let finished = Atomic(false)
}

/// CLOCK_MONOTONIC in nanoseconds: one clock for both ends, since both are in this process.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// A blocking IPv4 UDP socket (a receive waits at most 50 ms).
final class UDPSocket: Sendable {
    let descriptor: Int32

    private init() throws {
        descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    /// A socket bound to `address:port`, with room for the whole burst and a 50 ms receive timeout.
    convenience init(binding address: String, port: UInt16) throws {
        try self.init()
        var size: Int32 = 4 << 20
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var socketAddress = Self.socketAddress(address, port)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    /// A socket connected to `address:port`.
    convenience init(connectingTo address: String, port: UInt16) throws {
        try self.init()
        var socketAddress = Self.socketAddress(address, port)
        let connected = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    private static func socketAddress(_ address: String, _ port: UInt16) -> sockaddr_in {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = port.bigEndian
        inet_pton(AF_INET, address, &socketAddress.sin_addr)
        return socketAddress
    }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// One datagram's length, or -1 when none came within the timeout.
    func receive(into buffer: inout [UInt8]) -> Int {
        buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    }

    func close() { _ = Glibc.close(descriptor) }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A WebSocket client on a plain TCP socket, for tests that need to misbehave: read slowly or
/// not at all, send garbage. Every read waits at most `timeout` seconds.
final class RawWebSocket {
    /// A frame as received (server frames are not masked).
    struct Frame {
        var opcode: UInt8
        var payload: [UInt8]
        var text: String { String(decoding: payload, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Where the unread part of ``buffer`` starts (bytes before it are dropped when it refills).
    private var start = 0
    private var chunk = [UInt8](repeating: 0, count: 256 << 10)
    private(set) var closed = false

    /// Connects to 127.0.0.1:`port`; `receiveBuffer` shrinks the socket's receive buffer first
    /// (a client that cannot take much).
    init(port: Int, receiveBuffer: Int32? = nil, timeout: Double = 30) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw Failure(description: "connect: \(errno)")
        }
    }

    deinit { Glibc.close(fd) }

    /// Sends an HTTP request for `path` and returns the status line, the headers and the body
    /// (read to the end of the connection).
    static func get(port: Int, path: String) throws -> (status: Int, body: [UInt8]) {
        let socket = try RawWebSocket(port: port)
        try socket.send(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        while socket.fill() {}
        let text = socket.buffer
        guard let end = text.firstRange(of: Array("\r\n\r\n".utf8)) else { throw Failure(description: "no HTTP header") }
        let head = String(decoding: text[..<end.lowerBound], as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, Array(text[end.upperBound...]))
    }

    /// The upgrade handshake on `/events`; throws unless the server switches protocols.
    func handshake(path: String = "/events") throws {
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try send(Array(request.utf8))
        let marker = Array("\r\n\r\n".utf8)
        while buffer.firstRange(of: marker) == nil {
            guard fill() else { throw Failure(description: "no handshake answer") }
        }
        let end = buffer.firstRange(of: marker)!
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
        buffer.removeSubrange(..<end.upperBound)
        guard head.hasPrefix("HTTP/1.1 101") else { throw Failure(description: "not upgraded: \(head)") }
    }

    /// Writes `bytes` as they are.
    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send: \(errno)") }
            sent += n
        }
    }

    /// A masked client text frame carrying `text`.
    static func textFrame(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8)
        precondition(payload.count < 126)
        let mask: [UInt8] = [1, 2, 3, 4]
        return [0x81, 0x80 | UInt8(payload.count)] + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    /// The next frame, or `nil` when the connection ended (or a read timed out).
    func readFrame() -> Frame? {
        while true {
            if let frame = parseFrame() { return frame }
            guard fill() else { return nil }
        }
    }

    /// Reads frames until `stop` says so or the connection ends; every text line of every text
    /// frame goes to `line`.
    func readLines(until stop: (String) -> Bool) -> Bool {
        while let frame = readFrame() {
            guard frame.opcode == 1 else { continue }
            for line in frame.text.split(separator: "\n") where stop(String(line)) { return true }
        }
        return false
    }

    /// Whether the server ends the connection (a close frame, then the end of the stream)
    /// within the read timeout; the close code, when a close frame came.
    func waitForClose() -> (ended: Bool, code: Int?) {
        var code: Int?
        while let frame = readFrame() {
            if frame.opcode == 8, frame.payload.count >= 2 { code = Int(frame.payload[0]) << 8 | Int(frame.payload[1]) }
        }
        return (closed, code)
    }

    private func parseFrame() -> Frame? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let opcode = buffer[start] & 0x0F
        var length = Int(buffer[start + 1] & 0x7F)
        var header = 2
        if length == 126 {
            guard available >= 4 else { return nil }
            length = Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
            header = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = buffer[start + 2..<start + 10].reduce(0) { $0 << 8 | Int($1) }
            header = 10
        }
        guard available >= header + length else { return nil }
        let payload = Array(buffer[start + header..<start + header + length])
        start += header + length
        return Frame(opcode: opcode, payload: payload)
    }

    /// Reads what is there into the buffer; `false` at the end of the connection or a timeout.
    private func fill() -> Bool {
        if start > 0 {
            buffer.removeSubrange(..<start)
            start = 0
        }
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n == 0 { closed = true }
        guard n > 0 else { return false }
        buffer.append(contentsOf: chunk[..<n])
        return true
    }
}

import NIOCore

/// Cuts the reliable channel's bytes into messages (``ShareWire``): the length prefix is checked
/// against the limit before the body is waited for, so an announced 4 GB costs nothing.
struct MessageFramer {
    private var buffer = ByteBuffer()

    /// Takes in `bytes` and returns the messages they complete; throws at the first message that
    /// is oversized or malformed (the connection is then dropped).
    mutating func feed(_ bytes: inout ByteBuffer) throws(ShareError) -> [ShareMessage] {
        buffer.writeBuffer(&bytes)
        var messages: [ShareMessage] = []
        while buffer.readableBytes >= 4 {
            guard let prefix = buffer.getBytes(at: buffer.readerIndex, length: 4) else { break }
            let length = try ShareWire.announcedLength((prefix[0], prefix[1], prefix[2], prefix[3]))
            guard buffer.readableBytes >= 4 + length else { break }
            buffer.moveReaderIndex(forwardBy: 4)
            guard let body = buffer.readBytes(length: length) else { break }
            messages.append(try ShareWire.decode(body))
        }
        buffer.discardReadBytes()
        return messages
    }
}

extension Channel {
    /// Sends `message` (from any thread: NIO hops to the channel's event loop).
    func send(_ message: ShareMessage) {
        let bytes = ShareWire.encode(message)
        var buffer = allocator.buffer(capacity: bytes.count)
        buffer.writeBytes(bytes)
        writeAndFlush(buffer, promise: nil)
    }
}

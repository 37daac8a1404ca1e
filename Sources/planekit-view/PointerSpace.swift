import ArgumentParser
import PlaneKitCLI
import PlaneKitShare
import PlaneKitStream
import PlaneKitCommandSupport
import PlaneKitStreamFormat

/// `planekit pointer` as planekit-view runs it: the pointer's link to the space.
final class PointerSpace: PointerSession {
    private let link: PointerLink

    /// Joins as `request` says; one line on stderr says where. A failure (a refusal, a wrong
    /// secret, no host) is one line and exit status 1.
    init(_ request: PointerRequest) throws {
        do {
            let address = try SharedSpace.address(of: request.space, command: "pointer")
            link = try PointerLink.join(address, secret: request.secret, name: request.name, origin: request.origin,
                                        forward: request.forward, warn: { Diagnostics.warn($0) })
            Diagnostics.warn("pointer: joined \(link.peer.host)'s space at \(address) as \(request.name) (peer \(link.peer.number))")
        } catch {
            Diagnostics.warn("pointer: \(request.space.failure): \(error)")
            throw ExitCode(1)
        }
    }

    func send(_ attitude: AttitudeRecord) throws { try link.send(attitude) }

    var ended: String? { link.ended }

    func close() { link.close() }
}

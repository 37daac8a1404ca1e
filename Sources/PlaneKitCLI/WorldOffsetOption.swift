import ArgumentParser
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitAnchors
import PlaneKitCommandSupport

/// `synth --frames N --world-offset DEG,X,Y,Z`: the stream's poses in another world, turned by
/// DEG degrees about +Y and shifted by (X, Y, Z) metres — as a second device's session would
/// have them, for trying `stream --load-map`.
struct WorldOffsetOption: ParsableArguments {
    @Option(name: .customLong("world-offset"),
            help: ArgumentHelp("With --frames: give every pose in a world turned DEG degrees about +Y and shifted by X,Y,Z metres (pose' = offset · pose).",
                               valueName: "DEG,X,Y,Z"))
    var text: String?

    /// The offset, identity when none is given.
    func transform() throws -> Transform {
        guard let text else { return .identity }
        let numbers = CFormat.floats(commaSeparated: text).compactMap { $0 }
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite) else {
            throw ValidationError("--world-offset takes four numbers DEG,X,Y,Z, got '\(text)'")
        }
        return Transform(rotation: Quaternion(angle: numbers[0] * .pi / 180, axis: SIMD3(0, 1, 0)),
                         translation: SIMD3(numbers[1], numbers[2], numbers[3]))
    }
}

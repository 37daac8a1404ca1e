import ArgumentParser
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitAnchors
import PlaneKitUnorganizedDetection

/// `--sensor`, shared by every command that finds planes in organized clouds and depth frames.
package struct SensorOption: ParsableArguments {
    package init() {}

    @Option(help: ArgumentHelp(
        "The sensor's noise profile: auto (measured from the data, the default), kinect, realsense, tof or scanner.",
        discussion: """
            auto fits the depth noise to small flat blocks of each frame (a stream keeps one \
            estimate across its frames) and picks the grid cell from how rough the data is: a \
            Kinect at room scale gets 20-pixel cells, a tabletop scanner cells of a few pixels, \
            so faces of a few hundred pixels are found. Name a profile to use its fixed noise model.
            """,
        valueName: "profile"))
    package var sensor: SensorProfile = .auto

    /// A plane finder for clouds whose up is `up`, detecting with this profile.
    package func finder(up: SIMD3<Float>) -> PlaneFinder {
        var finder = PlaneFinder(up: up)
        finder.organized.configuration.sensor = sensor
        return finder
    }
}

extension SensorProfile: ExpressibleByArgument {
    /// Every profile but `custom`, which only a program can fill in.
    public init?(argument: String) {
        guard let profile = SensorProfile(rawValue: argument), profile != .custom else { return nil }
        self = profile
    }

    /// The profiles a user may name (`custom` is what tuning options make, not a choice).
    public static var allValueStrings: [String] { allCases.filter { $0 != .custom }.map(\.rawValue) }
}

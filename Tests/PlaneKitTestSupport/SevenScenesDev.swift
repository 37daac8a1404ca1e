import Foundation
import PlaneKitCloudIO
import PlaneKitGeometry
import PlaneKitInput

/// Where the development frames of the real Kinect walk are.
public enum SevenScenesDev {
    public static let folder = SharedData.path("7scenes-redkitchen-dev")
    public static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: folder + "/frame-000149.pose.txt")
    }
    public static let intrinsics = PinholeIntrinsics(fx: 585, fy: 585, cx: 320, cy: 240, width: 640, height: 480)!

    /// Frame `index`'s depth image (millimetres; 0 and 65 535 are holes).
    public static func depth(_ index: Int) throws -> GrayImage {
        try DepthImageReader.readRaw(path: folder + String(format: "/frame-%06d.depth.png", index))
    }

    /// Frame `index`'s cloud (holes are NaN).
    public static func cloud(_ index: Int) throws -> PointCloud {
        var cloud = DepthImage(try depth(index), scale: 0.001).pointCloud(intrinsics: intrinsics)
        cloud.intrinsics = intrinsics
        return cloud
    }

    /// Frame `index`'s reference pose (world-from-camera, re-orthonormalised: the file's
    /// rotation is rigid only to a few decimals).
    public static func pose(_ index: Int) throws -> Transform {
        let rows = try String(contentsOfFile: folder + String(format: "/frame-%06d.pose.txt", index), encoding: .utf8)
            .split(whereSeparator: \.isWhitespace).compactMap { Float($0) }
        guard rows.count == 16, let matrix = Transform(columnMajor: (0..<16).map { rows[($0 % 4) * 4 + $0 / 4] }, tolerance: 1e-2) else {
            throw InputError(source: folder + String(format: "/frame-%06d.pose.txt", index), problem: "not the 16 numbers of a rigid transform")
        }
        return matrix.orthonormalized
    }

    /// Gravity's down in the reference world (`gravity-direction.txt`).
    public static func gravity() throws -> SIMD3<Float> {
        let n = try String(contentsOfFile: folder + "/gravity-direction.txt", encoding: .utf8)
            .split(whereSeparator: \.isWhitespace).compactMap { Float($0) }
        return normalize(SIMD3(n[0], n[1], n[2]))
    }
}

/// A single-channel image of unsigned samples (8- or 16-bit), row-major: the raw content of a
/// depth image file before scaling, or a label image to be written.
public struct GrayImage: Sendable, Equatable {
    /// Pixels per row.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Bits per sample in the file: 8 or 16.
    public let bitDepth: Int
    /// The samples, `width × height` of them, row-major.
    public var samples: ContiguousArray<UInt16>

    /// An image from its parts, or an error when the sizes disagree, the bit depth is not 8 or
    /// 16, or an 8-bit image has a sample above 255.
    public init(width: Int, height: Int, bitDepth: Int = 16, samples: ContiguousArray<UInt16>) throws(InputError) {
        guard bitDepth == 8 || bitDepth == 16 else {
            throw InputError(source: "image", problem: "bit depth \(bitDepth) is not 8 or 16")
        }
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height) == (samples.count, false) else {
            throw InputError(source: "image", problem: "\(width)×\(height) does not match \(samples.count) samples")
        }
        if bitDepth == 8, samples.contains(where: { $0 > 255 }) {
            throw InputError(source: "image", problem: "8-bit image has a sample above 255")
        }
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.samples = samples
    }

    /// An image whose parts the decoder has already checked.
    init(checkedWidth width: Int, height: Int, bitDepth: Int, samples: ContiguousArray<UInt16>) {
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.samples = samples
    }

    /// The sample at column `u`, row `v`.
    public subscript(u: Int, v: Int) -> UInt16 { samples[v * width + u] }
}

/// An 8-bit RGB image, row-major (for example a colour-coded label image to be written).
public struct RGBImage: Sendable, Equatable {
    /// Pixels per row.
    public let width: Int
    /// Rows.
    public let height: Int
    /// The pixels, `width × height` of them, row-major.
    public var pixels: ContiguousArray<SIMD3<UInt8>>

    /// An image from its parts, or an error when the sizes disagree.
    public init(width: Int, height: Int, pixels: ContiguousArray<SIMD3<UInt8>>) throws(InputError) {
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height) == (pixels.count, false) else {
            throw InputError(source: "image", problem: "\(width)×\(height) does not match \(pixels.count) pixels")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at column `u`, row `v`.
    public subscript(u: Int, v: Int) -> SIMD3<UInt8> { pixels[v * width + u] }
}

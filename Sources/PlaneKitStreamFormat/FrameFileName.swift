/// The name of frame `index`'s file in a folder of per-frame files, `frame-NNNNNN.EXT` with the
/// frame number zero-padded to six digits (more when it is larger), so that a folder listing
/// sorts in frame order: `stream --png-dir` pictures and `synth --depth-dir` depth images.
public func frameFileName(_ index: Int, extension ext: String) -> String {
    var digits = String(index)
    if digits.count < 6 { digits = String(repeating: "0", count: 6 - digits.count) + digits }
    return "frame-" + digits + "." + ext
}

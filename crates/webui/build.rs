//! Lists `web/static` into `$OUT_DIR/assets.rs`: one `include_bytes!` per file, sorted by
//! path so the table is stable and searchable by binary search.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

/// FNV-1a, 64 bits: an entity tag only has to change when the bytes do (no attacker
/// chooses our files), and a build script without dependencies has no SHA at hand.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

// The same function the library exports.
include!("src/content_type.rs");

fn main() -> io::Result<()> {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest.join("../../web/static").canonicalize()?;
    println!("cargo::rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    walk(&root, &mut files)?;
    let mut rows: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|p| {
            let rel =
                p.strip_prefix(&root).expect("under root").to_string_lossy().replace('\\', "/");
            (format!("/{rel}"), p)
        })
        .collect();
    rows.sort();
    let mut code = String::from(
        "/// Every embedded file, sorted by path.\npub static ASSETS: &[Asset] = &[\n",
    );
    for (path, file) in rows {
        let etag = format!("\"{:016x}\"", fnv1a(&fs::read(&file)?));
        code.push_str(&format!(
            "    Asset {{ path: {path:?}, bytes: include_bytes!({file:?}), content_type: {ct:?}, \
             etag: {etag:?} }},\n",
            file = file.display().to_string(),
            ct = content_type(&path)
        ));
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo")).join("assets.rs");
    fs::write(out, code)
}

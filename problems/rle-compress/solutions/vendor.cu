// vendor anchor for make bench: run-length encoding with cub::DeviceRunLengthEncode::Encode (CUB, shipped with the
// CUDA toolkit). Not a score end point: it is timed beside the baseline and fast references to show what the vendor
// library gets on this GPU.
//   - Why this is the right anchor: Encode is NVIDIA's device-wide RLE, a single-pass reduce-by-key with decoupled
//     look-back, exactly this problem's contract: the unique bytes go to compressed_data, the run lengths (as
//     uint32_t) to compressed_lengths, and the run count to a 4-byte device slot, copied back to the host
//     (cudaMemcpy, which also waits for the encode) and returned. The bytes are read as uint8_t, so runs are runs
//     of equal bytes whatever the sign of char.
//   - Workspace: [0, 256) holds the run count; CUB's temporary storage starts at byte 256 (CUB aligns its own
//     allocations inside it). workspace_size() asks CUB for temp_storage_bytes (Encode with a null temp pointer: a
//     host-side size query, no kernel, no allocation) and returns 256 + that, rounded up to 256. CUB initialises
//     its tile states itself, so the workspace's unspecified content does not matter.
//   - Constraint: the judge allows 16·raw_count bytes of workspace. CUB's temporary storage has a fixed part (tile
//     states padded to a warp, alignment slack) of a few hundred bytes, more than 16·raw_count for the tiniest
//     inputs (raw_count of 1, 2, 3). For those, workspace_size() returns 0 and solve() puts the run count and CUB's
//     temporary storage in a small device buffer of its own instead (a function-local static, cudaMalloc'd on the
//     first such call and reused, counted by the judge against its buffers + 64 MiB limit): the algorithm is
//     CUB's on every input. Every benchmark (2^28 bytes; CUB needs a few MiB of the 4 GiB allowed) uses the
//     judge's workspace and allocates nothing.
//   - raw_count = 0: workspace_size() returns 0 and solve() returns 0 without calling CUB.
#include <cub/device/device_run_length_encode.cuh>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace {

constexpr size_t kHeader = 256;  // the run count, padded so that CUB's storage starts 256-byte aligned

size_t round_up_256(size_t x) { return (x + 255) / 256 * 256; }

// Bytes for the run count and CUB's temporary storage for n input bytes (0 when CUB cannot say: no device).
size_t needed_bytes(uint32_t n) {
    size_t temp = 0;
    if (cub::DeviceRunLengthEncode::Encode(nullptr, temp, static_cast<const uint8_t*>(nullptr),
                                           static_cast<uint8_t*>(nullptr), static_cast<uint32_t*>(nullptr),
                                           static_cast<uint32_t*>(nullptr), static_cast<int>(n)) != cudaSuccess)
        return 0;
    return kHeader + round_up_256(temp);
}

// Whether the judge's workspace (at most 16 bytes per input byte) can hold what CUB needs for n bytes.
bool fits_workspace(uint32_t n, size_t need) { return need > 0 && need <= size_t{16} * n; }

}  // namespace

extern "C" size_t workspace_size(uint32_t raw_count) {
    if (raw_count == 0) return 0;
    const size_t need = needed_bytes(raw_count);
    return fits_workspace(raw_count, need) ? need : 0;
}

extern "C" uint32_t solve(uint32_t raw_count, const char* raw, void* workspace, char* compressed_data,
                          uint32_t* compressed_lengths) {
    if (raw_count == 0) return 0;  // no runs, and no CUB call
    const size_t need = needed_bytes(raw_count);
    if (need == 0) return 0;
    char* base = static_cast<char*>(workspace);
    if (!fits_workspace(raw_count, need)) {  // tiny inputs only: a buffer of our own, kept for later calls
        static char* own = nullptr;
        static size_t own_bytes = 0;
        if (own_bytes < need) {
            if (own) cudaFree(own);
            own = nullptr;
            own_bytes = 0;
            if (cudaMalloc(&own, need) != cudaSuccess) {
                own = nullptr;
                return 0;
            }
            own_bytes = need;
        }
        base = own;
    }
    auto* d_runs = reinterpret_cast<uint32_t*>(base);
    size_t temp_bytes = need - kHeader;
    if (cub::DeviceRunLengthEncode::Encode(base + kHeader, temp_bytes, reinterpret_cast<const uint8_t*>(raw),
                                           reinterpret_cast<uint8_t*>(compressed_data), compressed_lengths, d_runs,
                                           static_cast<int>(raw_count)) != cudaSuccess)
        return 0;
    uint32_t runs = 0;
    cudaMemcpy(&runs, d_runs, sizeof runs, cudaMemcpyDeviceToHost);
    return runs;
}

// expect: RE
// The cheat: no kernel, and the device memory reached at another address. /proc/self/maps names the file mapped
// where A lies (under CPU emulation, the judge's arena: a memfd); the file is opened again (an open descriptor of
// the process to the same file, or /proc/self/map_files), mapped at an address of the submission's own, and A, B
// and C are read and written there. Must get RE. On a GPU no file lies under a device pointer, and the file falls
// back to std::memcpy on the device pointers, which faults. Under CPU emulation the runner keeps no descriptor of the
// arena once it is mapped, and the device range's files are out of reach, so the same fallback faults, which the
// emulator reports (docs/design.md, "Emulator").
// Honest twin: device-staging-with-kernel.cu.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

// The mapping that holds `p`: its start, end and file offset, and its file's device and inode; false if none.
struct Mapping {
    uintptr_t start = 0, end = 0;
    unsigned long long offset = 0, inode = 0;
};
bool mapping_of(const void* p, Mapping& m) {
    FILE* f = std::fopen("/proc/self/maps", "r");
    if (!f) return false;
    char line[512];
    bool found = false;
    const uintptr_t at = reinterpret_cast<uintptr_t>(p);
    while (!found && std::fgets(line, sizeof line, f)) {
        unsigned long s = 0, e = 0, dev1 = 0, dev2 = 0;
        char perms[8];
        if (std::sscanf(line, "%lx-%lx %7s %llx %lx:%lx %llu", &s, &e, perms, &m.offset, &dev1, &dev2, &m.inode) == 7 &&
            s <= at && at < e && m.inode != 0) {
            m.start = s;
            m.end = e;
            found = true;
        }
    }
    std::fclose(f);
    return found;
}

// A descriptor of the mapping's file: one of the process's own, or its /proc/self/map_files entry; -1 if none.
int open_file_of(const Mapping& m) {
    for (int fd = 0; fd < 1024; ++fd) {
        struct stat st {};
        if (fstat(fd, &st) == 0 && st.st_ino == m.inode && S_ISREG(st.st_mode)) return fd;
    }
    char path[128];
    std::snprintf(path, sizeof path, "/proc/self/map_files/%lx-%lx", (unsigned long)m.start, (unsigned long)m.end);
    return open(path, O_RDWR);
}

// `p` at an address of the submission's own, or null.
unsigned char* view_of(const void* p, size_t bytes) {
    Mapping m;
    if (!mapping_of(p, m)) return nullptr;
    const int fd = open_file_of(m);
    if (fd < 0) return nullptr;
    const unsigned long long at = m.offset + (reinterpret_cast<uintptr_t>(p) - m.start);
    const unsigned long long page = at & ~4095ull;
    void* v = mmap(nullptr, bytes + (at - page), PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)page);
    return v == MAP_FAILED ? nullptr : static_cast<unsigned char*>(v) + (at - page);
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    const size_t bytes = sizeof(float) * (size_t)N;
    const unsigned char* a = view_of(A, bytes);
    const unsigned char* b = view_of(B, bytes);
    unsigned char* c = view_of(C, bytes);
    std::vector<float> x(N), y(N);
    std::memcpy(x.data(), a ? a : reinterpret_cast<const unsigned char*>(A), bytes);
    std::memcpy(y.data(), b ? b : reinterpret_cast<const unsigned char*>(B), bytes);
    for (int i = 0; i < N; ++i) x[i] += y[i];
    std::memcpy(c ? c : reinterpret_cast<unsigned char*>(C), x.data(), bytes);
}

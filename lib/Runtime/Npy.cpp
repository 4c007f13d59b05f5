//===- Npy.cpp - read and write NumPy .npy files --------------------------===//
#include "RlxAD/Runtime/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

using namespace rlx::runtime;

static llvm::Error npyError(llvm::StringRef path, const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + what);
}

/// The value of `'key': value` in the header dict, up to the next comma at
/// depth zero.
static std::optional<std::string> headerValue(llvm::StringRef header,
                                              llvm::StringRef key) {
  std::string quoted = ("'" + key + "'").str();
  size_t at = header.find(quoted);
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  size_t colon = header.find(':', at);
  if (colon == llvm::StringRef::npos)
    return std::nullopt;
  int depth = 0;
  size_t end = colon + 1;
  for (; end < header.size(); ++end) {
    char c = header[end];
    if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    else if ((c == ',' || c == '}') && depth == 0)
      break;
  }
  return header.slice(colon + 1, end).trim().str();
}

llvm::Expected<Tensor> rlx::runtime::readNpy(llvm::StringRef path) {
  // Only a regular file has a size to check against the header: a device
  // (/dev/zero) or a pipe could be read until memory runs out.
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status))
    return npyError(path, "cannot read: " + ec.message());
  if (status.type() != llvm::sys::fs::file_type::regular_file)
    return npyError(path, "not a regular file (devices, pipes and "
                          "directories are not read)");
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return npyError(path, "cannot read: " + file.getError().message());
  llvm::StringRef bytes = (*file)->getBuffer();
  if (bytes.size() < 10 || !bytes.starts_with("\x93NUMPY"))
    return npyError(path, "not a .npy file (bad magic)");
  uint8_t major = bytes[6];
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = uint8_t(bytes[8]) | (uint8_t(bytes[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return npyError(path, "truncated header");
    headerLen = uint32_t(uint8_t(bytes[8])) |
                (uint32_t(uint8_t(bytes[9])) << 8) |
                (uint32_t(uint8_t(bytes[10])) << 16) |
                (uint32_t(uint8_t(bytes[11])) << 24);
    headerStart = 12;
  } else {
    return npyError(path, "unsupported .npy version " + llvm::Twine(major));
  }
  if (headerStart + headerLen > bytes.size())
    return npyError(path, "truncated header");
  llvm::StringRef header = bytes.substr(headerStart, headerLen);

  std::optional<std::string> descr = headerValue(header, "descr");
  std::optional<std::string> fortran = headerValue(header, "fortran_order");
  std::optional<std::string> shapeText = headerValue(header, "shape");
  if (!descr || !fortran || !shapeText)
    return npyError(path,
                    "malformed header (needs descr, fortran_order, shape)");
  Tensor t;
  if (*descr == "'<f4'")
    t.dtype = DType::F32;
  else if (*descr == "'<f8'")
    t.dtype = DType::F64;
  else if (*descr == "'<i4'")
    t.dtype = DType::I32;
  else if (*descr == "'<i8'")
    t.dtype = DType::I64;
  else if (*descr == "'<f2'")
    t.dtype = DType::F16;
  // numpy has no bf16 dtype: bf16 arrays travel as the uint16 bit patterns.
  else if (*descr == "'<u2'")
    t.dtype = DType::BF16;
  else
    return npyError(path, "unsupported dtype " + *descr +
                              " (little-endian f4, f8, i4, i8, f2, or u2 "
                              "holding bf16 only)");
  if (*fortran != "False")
    return npyError(path, "Fortran-order arrays are not supported");

  llvm::StringRef shape = llvm::StringRef(*shapeText).trim();
  if (!shape.consume_front("(") || !shape.consume_back(")"))
    return npyError(path, "malformed shape " + *shapeText);
  llvm::SmallVector<llvm::StringRef> parts;
  shape.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts) {
    part = part.trim();
    if (part.empty())
      continue;
    int64_t dim;
    if (part.getAsInteger(10, dim) || dim < 0)
      return npyError(path, "malformed shape " + *shapeText);
    t.shape.push_back(dim);
  }
  // Guard the element count against overflow before multiplying it out.
  uint64_t count = 1;
  for (int64_t d : t.shape) {
    if (d != 0 && count > (uint64_t(1) << 40) / uint64_t(d))
      return npyError(path, "array too large");
    count *= uint64_t(d);
  }
  size_t dataStart = headerStart + headerLen;
  size_t need = count * dtypeSize(t.dtype);
  if (bytes.size() - dataStart < need)
    return npyError(path, "truncated data: expected " + llvm::Twine(need) +
                              " bytes, file has " +
                              llvm::Twine(bytes.size() - dataStart));
  if (bytes.size() - dataStart > need)
    return npyError(path,
                    "the file has " + llvm::Twine(bytes.size() - dataStart) +
                        " bytes of data, its header says " + llvm::Twine(need));
  void *data = std::malloc(std::max<size_t>(1, need));
  if (!data)
    return npyError(path, "out of memory");
  std::memcpy(data, bytes.data() + dataStart, need);
  t.storage = std::shared_ptr<void>(data, [](void *p) { std::free(p); });
  t.data = data;
  return t;
}

llvm::Error rlx::runtime::writeNpy(llvm::StringRef path, const Tensor &tensor) {
  std::string descr = tensor.dtype == DType::F32   ? "<f4"
                      : tensor.dtype == DType::F64 ? "<f8"
                      : tensor.dtype == DType::I32 ? "<i4"
                      : tensor.dtype == DType::I64 ? "<i8"
                      : tensor.dtype == DType::F16 ? "<f2"
                                                   : "<u2"; // bf16 bits
  // Python tuple syntax: (), (n,), (a, b, ...).
  std::string shape = "(";
  for (size_t i = 0; i < tensor.shape.size(); ++i)
    shape += (i ? ", " : "") + std::to_string(tensor.shape[i]);
  shape += tensor.shape.size() == 1 ? ",)" : ")";
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad with spaces so that the data starts on a 64-byte boundary.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';

  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return npyError(path, "cannot write: " + ec.message());
  os << "\x93NUMPY" << char(1) << char(0) << char(header.size() & 0xff)
     << char(header.size() >> 8) << header;
  os.write(static_cast<const char *>(tensor.data), tensor.numBytes());
  os.close();
  if (os.has_error())
    return npyError(path, "write failed");
  return llvm::Error::success();
}

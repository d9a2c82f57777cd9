/* jagged.h: the umbrella header of jagged, a C11 library (with CUDA kernels) for jagged arrays
 * and strided memory on the CPU and on NVIDIA GPUs. Include this, link -ljagged. */
#ifndef JAGGED_JAGGED_H
#define JAGGED_JAGGED_H

#include "jagged/version.h"
#include "jagged/export.h"
#include "jagged/status.h"
#include "jagged/types.h"
#include "jagged/device.h"
#include "jagged/memory.h"
#include "jagged/layout.h"
#include "jagged/view.h"
#include "jagged/array.h"
#include "jagged/builder.h"
#include "jagged/dlpack.h"
#include "jagged/cai.h"
#include "jagged/arrow.h"
#include "jagged/device_view.h"
#include "jagged/kernel.h"
#include "jagged/rtc.h"
#include "jagged/ops.h"
#include "jagged/indexing.h"
#include "jagged/ufunc.h"
#include "jagged/structure.h"
#include "jagged/elementwise.h"
#include "jagged/physics.h"
#include "jagged/combinatorics.h"
#include "jagged/log.h"
#include "jagged/parquet_writer.h"
#include "jagged/transfer.h"
#include "jagged/parquet.h"

#endif /* JAGGED_JAGGED_H */

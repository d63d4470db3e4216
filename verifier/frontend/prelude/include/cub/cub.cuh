// kverify model of <cub/cub.cuh>: the block and warp collectives kverify models (see each
// header). Other CUB parts are not declared: a kernel that uses them has an error.
#pragma once
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>

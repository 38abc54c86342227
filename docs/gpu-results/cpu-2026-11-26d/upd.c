/* scatter.copy taken apart at 1 thread: dmlref SCATTER with 1 update (the copy), then 64K
 * updates in a plain loop; glibc memcpy, then the same loop; dmlref SCATTER with the 64K.
 *   gcc -O2 -Iref/include upd.c build/lib/libdmlref.a -fopenmp -o upd && taskset -c 5 ./upd */
#include "dmlref.h"
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec*1e-6;}
int main(void){
  size_t n=64u<<20, k=64*1024;
  float*a=malloc(n*4),*o=malloc(n*4),*u=malloc(k*4); int64_t*x=malloc(k*8);
  madvise((void*)(((uintptr_t)a+4095)&~4095ul),n*4-4096,MADV_HUGEPAGE); madvise((void*)(((uintptr_t)o+4095)&~4095ul),n*4-4096,MADV_HUGEPAGE);
  uint64_t r=1; for(size_t i=0;i<n;i++)a[i]=i; for(size_t i=0;i<k;i++){r=r*6364136223846793005ULL+1442695040888963407ULL;x[i]=(r>>20)%n;u[i]=i;}
  memset(o,0,n*4);
  uint32_t sn[1]={n}, sk[1]={1};
  dmlr_tensor_desc din={DMLR_FLOAT32,0,1,sn,NULL,n*4,0}, dix={DMLR_INT64,0,1,sk,NULL,8,0}, dup={DMLR_FLOAT32,0,1,sk,NULL,4,0}, dout=din;
  dmlr_scatter_operator_desc s={&din,&dix,&dup,&dout,0}; dmlr_operator_desc op={DMLR_OPERATOR_SCATTER,&s};
  dmlr_buffer ins[3]={{a,n*4},{x,8},{u,4}}, outs[1]={{o,n*4}}; dmlr_error e;
  for(int rep=0;rep<6;rep++){
    double t0=now(); dmlr_execute(&op,ins,3,DMLR_FEATURE_LEVEL_MAX,outs,1,&e); double t1=now();
    for(size_t i=0;i<k;i++) o[x[i]]=u[i]; double t2=now();
    memcpy(o,a,n*4); double t3=now();
    for(size_t i=0;i<k;i++) o[x[i]]=u[i]; double t4=now();
    sk[0]=k; dix.TotalTensorSizeInBytes=8*k; dup.TotalTensorSizeInBytes=4*k; ins[1].size=8*k; ins[2].size=4*k;
    double t5=now(); dmlr_execute(&op,ins,3,DMLR_FEATURE_LEVEL_MAX,outs,1,&e); double t6=now();
    sk[0]=1; dix.TotalTensorSizeInBytes=8; dup.TotalTensorSizeInBytes=4; ins[1].size=8; ins[2].size=4;
    printf("dmlr copy %.2f + upd %.2f | memcpy %.2f + upd %.2f | dmlr k64K %.2f\n",t1-t0,t2-t1,t3-t2,t4-t3,t6-t5);
  }
}

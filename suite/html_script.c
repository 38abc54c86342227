/*
 * html_script.c -- the report page's one inline script (report_html.c):
 * the table's filters (status, operator, data type, "differs"; a grid cell
 * sets operator and data type), the failures shown PAGE at a time (a link
 * to a failure shows its page), and the heat maps of the failures shown,
 * drawn from their run-length coded cells: tiles side by side, a cell grid
 * where cells are large enough, each run of equal cells a rectangle titled
 * with its coordinate ranges and its count (the hover text).  Without
 * scripts the whole table and every failure's text still show.
 */
#include "dmlcts.h"

#include <stdio.h>

static const char script[] =
    "(function(){var $=function(i){return document.getElementById(i)},PAGE=50,ROWS=500,all="
    "false;"
    "var st=$('f-status'),op=$('f-op'),dt=$('f-dt'),df=$('f-differ'),count=$('f-count');"
    "var rows=document.querySelectorAll('#cases tr[data-status]'),groups=document."
    "querySelectorAll('#cases tr.group');"
    "function key(r){return r.getAttribute('data-op')+'\\n'+r.getAttribute('data-dt')}"
    "var more=document.createElement('button');more.addEventListener('click',function(){all="
    "true;apply()});count.parentNode.appendChild(more);"
    "function apply(){var n=0,seen={};for(var i=0;i<rows.length;i++){var r=rows[i],ok=(!st."
    "value||r.getAttribute('data-status')===st.value)&&(!op.value||r.getAttribute('data-op')"
    "===op.value)&&(!dt.value||r.getAttribute('data-dt')===dt.value)&&(!df||!df.checked||r."
    "getAttribute('data-differ')==='1');if(ok)n++;ok=ok&&(all||n<=ROWS);r.className=ok?'':"
    "'off';if(ok)seen[key(r)]=1;}for(var g=0;g<groups.length;g++)groups[g].className=seen["
    "key(groups[g])]?'group':'group off';count.textContent=n+' shown';more.textContent="
    "'show all '+n;more.style.display=!all&&n>ROWS?'':'none';}"
    "[st,op,dt,df].forEach(function(e){if(e)e.addEventListener('change',apply)});"
    "var cells=document.querySelectorAll('.grid td[data-op]');for(var i=0;i<cells.length;i++)"
    "cells[i].addEventListener('click',function(){op.value=this.getAttribute('data-op');dt."
    "value=this.getAttribute('data-dt');st.value='';if(df)df.checked=false;apply();$("
    "'failures').scrollIntoView();});apply();"
    /* heat maps */
    "var NS='http://www.w3.org/2000/svg',maps=0;function el(n,a,p){var e=document."
    "createElementNS(NS,n);for(var k in a)e.setAttribute(k,a[k]);if(p)p.appendChild(e);"
    "return e}"
    "function heat(m){var b=m.getAttribute('data-bins').split(',').map(Number),ex=m."
    "getAttribute('data-extent').split(',').map(Number),T=b[0],R=b[1],C=b[2],cnt=[],at=0,"
    "name=m.getAttribute('data-tensor');m.getAttribute('data-cells').split(',').forEach("
    "function(t){var p=t.split('*'),v=+p[0],n=p.length>1?+p[1]:1;for(;n>0;n--)cnt[at++]=v;});"
    "function lo(a,i){return Math.ceil(i*ex[a]/b[a])}"
    "function range(a,i,j){var x=lo(a,i),y=lo(a,j+1)-1;return y>x?x+'\\u2013'+y:''+x}"
    "var across=T*C+(T-1),s=Math.max(1,Math.min(24,Math.floor(720/across))),h=R*s<24?Math."
    "ceil(24/R):s,top=T>1?14:0,id='grid'+(maps++);"
    "var svg=el('svg',{'class':'heatmap',width:across*s,height:R*h+top,role:'img'});"
    "el('title',{},svg).textContent='where the mismatches of '+name+' lie';"
    "var pat=el('pattern',{id:id,width:s,height:h,patternUnits:'userSpaceOnUse'},el('defs',{},"
    "svg));el('path',{d:'M '+s+' 0 L 0 0 0 '+h,fill:'none',stroke:'#fff','stroke-width':1},"
    "pat);"
    "for(var t=0;t<T;t++){var x0=t*(C+1)*s,te=lo(0,t+1)-lo(0,t);el('rect',{x:x0,y:top,"
    "width:C*s,height:R*h,fill:'#dcedc8',stroke:'#9e9e9e','stroke-width':0.5},svg);"
    "if(T>1)el('text',{x:x0,y:10,'font-size':9,fill:'#555'},svg).textContent=lo(0,t)+(te>1?"
    "'+':'');"
    "for(var y=0;y<R;y++){var ye=lo(1,y+1)-lo(1,y);for(var x=0;x<C;){var c0=cnt[(t*R+y)*C+"
    "x],shade=function(xx){var c=cnt[(t*R+y)*C+xx],e=te*ye*(lo(2,xx+1)-lo(2,xx));return c?1+"
    "Math.min(7,Math.floor(c*7/e)):0},k=shade(x),run=1,sum=c0,els;while(x+run<C&&shade(x+run)"
    "===k){sum+=cnt[(t*R+y)*C+x+run];run++}els=te*ye*(lo(2,x+run)-lo(2,x));"
    "var r=el('rect',{x:x0+x*s,y:top+y*h,width:run*s,height:h,fill:k?'#b71c1c':'#fff',"
    "'fill-opacity':k?(0.3+0.1*(k-1)).toFixed(2):0},svg);el('title',{},r).textContent=name+"
    "(T>1?' leading index '+range(0,t,t)+',':'')+' rows '+range(1,y,y)+', columns '+range(2,"
    "x,x+run-1)+': '+sum+' of '+els+' element(s) differ';x+=run}}"
    "if(s>=4&&h>=4)el('rect',{x:x0,y:top,width:C*s,height:R*h,fill:'url(#'+id+')',"
    "'pointer-events':'none','class':'cellgrid'},svg);}"
    "m.appendChild(svg);m.className+=' drawn'}"
    /* failures a page at a time */
    "var det=document.querySelectorAll('#details > details'),pages=Math.max(1,Math.ceil(det."
    "length/PAGE)),cur=-1,pager=$('pager');"
    "function show(k){if(k===cur)return;cur=k;for(var i=0;i<det.length;i++){var on=Math."
    "floor(i/PAGE)===k;det[i].className=on?'failure':'failure off';if(on){det[i].open=true;var lz=det[i]"
    ".querySelector('script[type=\"text/html\"]');if(lz){var w=document.createElement('div');w."
    "innerHTML=lz.textContent;while(w.firstChild)det[i].insertBefore(w.firstChild,lz);det[i]."
    "removeChild(lz)}var ms=det[i].querySelectorAll('div.map:not(.drawn)');for(var j=0;j<ms.length;j++)heat(ms[j])}}"
    "pager.textContent='';if(!det.length)return;var p=document.createElement('span');p."
    "textContent='failures '+(k*PAGE+1)+'\\u2013'+Math.min(det.length,(k+1)*PAGE)+' of '+det."
    "length+' ';pager.appendChild(p);[['previous',k-1],['next',k+1]].forEach(function(b){"
    "var e=document.createElement('button');e.textContent=b[0];e.disabled=b[1]<0||b[1]>="
    "pages;e.addEventListener('click',function(){show(b[1])});pager.appendChild(e)});}"
    "function go(){var h=location.hash.slice(1),e=h&&$(h);if(!e||e.tagName!=='DETAILS')"
    "return;for(var i=0;i<det.length;i++)if(det[i]===e){show(Math.floor(i/PAGE));e.open="
    "true;e.scrollIntoView()}}window.addEventListener('hashchange',go);show(0);go();})();";

void dmlcts_html_script(FILE *f)
{
    fprintf(f, "<script>%s</script>\n", script);
}

import { WidgetStockSchema } from '@irp/proto';
import { Controller, Get } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { Contract } from '../common/contract';
import { ApiKeyQuery, Widget, WidgetApi, WidgetContext } from './widget-context';

/** The public widget API: what a client website's widget shows about its stock. */
@WidgetApi()
@Controller('api/widget')
export class WidgetController {
  @Get('stock')
  @ApiKeyQuery()
  @Contract({ response: WidgetStockSchema })
  @ApiOperation({
    summary: 'The stock of an API key (public, CORS *); 401 no or unknown key, 404 archived, 429 rate limit',
  })
  stock(@Widget() widget: WidgetContext) {
    return widget.stock;
  }
}
